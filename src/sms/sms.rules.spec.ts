import {
  afterFailure,
  bodyEncodingOf,
  contentJson,
  contentOf,
  excerpt,
  httpVerdict,
  isGsm7,
  isReportReference,
  kannelDeliveryState,
  kannelSendUrl,
  kannelVerdict,
  maskedPhone,
  newReportReference,
  nextDeliveryState,
  renderTemplate,
  reportKeyOf,
  wordDeliveryState,
  type TemplateValues,
} from './sms.rules.js';

describe('SMS rules', () => {
  it('tells GSM 7-bit text from text that needs UCS-2', () => {
    expect(isGsm7('123456 is your Wi-Fi code for Café Ünal. {ok} €')).toBe(true);
    expect(isGsm7('Wi-Fi kodunuz: 123456. 10 dakika geçerlidir')).toBe(false);
    expect(isGsm7('ğ')).toBe(false);
  });

  it('builds the sendsms URL from the configured one, with UTF-8/UCS-2 and a delivery report when needed', () => {
    const base = 'http://127.0.0.1:13013/cgi-bin/sendsms?username=hotspot&password=p%26ss&smsc=fake';
    const plain = new URL(
      kannelSendUrl(base, { to: '+905551234567', text: 'Code 123456', from: null, reportUrl: null }),
    );
    expect(Object.fromEntries(plain.searchParams)).toEqual({
      username: 'hotspot',
      password: 'p&ss',
      smsc: 'fake',
      to: '+905551234567',
      text: 'Code 123456',
    });
    const turkish = new URL(
      kannelSendUrl(base, {
        to: '+905551234567',
        text: 'Kod: 1 ş',
        from: 'Hotel',
        reportUrl: 'https://h/sms/reports/r',
      }),
    );
    expect(turkish.searchParams.get('charset')).toBe('UTF-8');
    expect(turkish.searchParams.get('coding')).toBe('2');
    expect(turkish.searchParams.get('text')).toBe('Kod: 1 ş');
    expect(turkish.searchParams.get('from')).toBe('Hotel');
    expect(turkish.searchParams.get('dlr-mask')).toBe('31');
    expect(turkish.searchParams.get('dlr-url')).toBe('https://h/sms/reports/r?type=%d');
  });

  it("reads Kannel's answers: accepted, queued, a retry, a refusal", () => {
    expect(kannelVerdict(202, '0: Accepted for delivery')).toEqual({ verdict: 'accepted', providerId: null });
    expect(kannelVerdict(202, '3: Queued for later delivery').verdict).toBe('accepted');
    expect(kannelVerdict(503, 'Temporal failure, try again later.').verdict).toBe('retry');
    expect(kannelVerdict(403, 'Authorization failed for sendsms')).toEqual({
      verdict: 'refused',
      reason: 'kannel answered 403: Authorization failed for sendsms',
    });
    expect(kannelVerdict(400, 'Sender missing and no global set, rejected').verdict).toBe('refused');
  });

  it("maps Kannel's DLR types and providers' status words to delivery states", () => {
    expect(['1', '2', '4', '8', '16', '3', 'x'].map(kannelDeliveryState)).toEqual([
      'delivered',
      'failed',
      'buffered',
      'smsc',
      'failed',
      null,
      null,
    ]);
    expect(['delivered', 'undelivered', 'Failed', 'sent', 'queued', 'sending'].map(wordDeliveryState)).toEqual([
      'delivered',
      'failed',
      'failed',
      'smsc',
      'buffered',
      null,
    ]);
  });

  it('keeps a final delivery state against later reports', () => {
    expect(nextDeliveryState(null, 'smsc')).toBe('smsc');
    expect(nextDeliveryState('smsc', 'delivered')).toBe('delivered');
    expect(nextDeliveryState('smsc', 'smsc')).toBeNull();
    expect(nextDeliveryState('delivered', 'smsc')).toBeNull();
    expect(nextDeliveryState('failed', 'delivered')).toBeNull();
  });

  it('renders templates with each value encoded for where it stands', () => {
    const values: TemplateValues = {
      to: '+905551234567',
      toDigits: '905551234567',
      text: 'Kod "1" & <2> ş',
      from: 'Otel',
      id: 'm1',
      reportUrl: 'https://h/r',
    };
    expect(renderTemplate('https://x/send?to={{to}}&msg={{text}}&u={{user}}', values, 'url')).toBe(
      'https://x/send?to=%2B905551234567&msg=Kod%20%221%22%20%26%20%3C2%3E%20%C5%9F&u={{user}}',
    );
    expect(renderTemplate('To={{to}}&Body={{text}}', values, 'form')).toBe(
      'To=%2B905551234567&Body=Kod+%221%22+%26+%3C2%3E+%C5%9F',
    );
    expect(JSON.parse(renderTemplate('{"gsm":"{{toDigits}}","msg":"{{text}}"}', values, 'json'))).toEqual({
      gsm: '905551234567',
      msg: 'Kod "1" & <2> ş',
    });
    expect(renderTemplate('<msg>{{text}}</msg>', values, 'xml')).toBe('<msg>Kod &#34;1&#34; &#38; &#60;2&#62; ş</msg>');
    expect(bodyEncodingOf('application/json; charset=utf-8')).toBe('json');
    expect(bodyEncodingOf('application/x-www-form-urlencoded')).toBe('form');
    expect(bodyEncodingOf('text/xml')).toBe('xml');
    expect(bodyEncodingOf('text/plain')).toBe('raw');
  });

  it("reads a provider's answer: 2xx and the accept pattern, retries, refusals", () => {
    expect(httpVerdict(201, '{"sid":"SM1"}', null)).toEqual({ verdict: 'accepted', providerId: null });
    expect(httpVerdict(200, '00 123456789', /^00 (\d+)/)).toEqual({ verdict: 'accepted', providerId: '123456789' });
    expect(httpVerdict(200, '30', /^00 (\d+)/).verdict).toBe('retry');
    expect(httpVerdict(429, '', null).verdict).toBe('retry');
    expect(httpVerdict(502, 'bad gateway', null).verdict).toBe('retry');
    expect(httpVerdict(401, 'unauthorised', null).verdict).toBe('refused');
  });

  it('never keeps digits a gateway echoed in an error (the code, the phone)', () => {
    expect(excerpt('invalid text "Your code is 123456" to 905551234567\n')).toBe('invalid text "Your code is #" to #');
    expect(excerpt('')).toBe('(empty answer)');
  });

  it('retries until the last attempt, never after a refusal', () => {
    expect(afterFailure('retry', 1, 4)).toBe('retry');
    expect(afterFailure('retry', 4, 4)).toBe('failed');
    expect(afterFailure('refused', 1, 4)).toBe('failed');
  });

  it('makes unguessable report references and keeps only their hash', () => {
    const reference = newReportReference();
    expect(isReportReference(reference)).toBe(true);
    expect(newReportReference()).not.toBe(reference);
    expect(reportKeyOf(reference)).toMatch(/^[0-9a-f]{64}$/);
    expect(isReportReference('../../etc')).toBe(false);
    expect(contentOf(contentJson({ text: 't', reference }))).toEqual({ text: 't', reference });
    expect(maskedPhone('+905551234567')).toBe('+905…67');
  });
});
