import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { GuestIdentityEntity } from '../src/guest-access/entities/guest-identity.entity.js';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { PhoneChallengeEntity } from '../src/phone-verification/entities/phone-challenge.entity.js';
import { PhoneCodeCounterEntity } from '../src/phone-verification/entities/phone-code-counter.entity.js';
import { PhoneVerificationService } from '../src/phone-verification/phone-verification.service.js';
import { SmsMessageEntity } from '../src/sms/entities/sms-message.entity.js';
import { HttpDriver } from '../src/sms/drivers/http.driver.js';
import { MetricsServer } from '../src/metrics/metrics-server.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { databaseKinds } from './support/databases.js';
import { KANNEL_MISSING, kannelInstalled, startKannel, type Kannel } from './support/kannel.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const VENUE = 'harbour';
const OTHER_VENUE = 'quay';
const TERMS = 'Be kind to the network.';

/** A MikroTik redirect of the device with this MAC's last byte. */
function gatewayQuery(last: number): string {
  const mac = `02:00:00:00:01:${last.toString(16).padStart(2, '0')}`;
  return (
    `?link-login-only=http%3A%2F%2F10.5.50.1%2Flogin&mac=${encodeURIComponent(mac)}&ip=10.5.50.${last}` +
    '&dst=http%3A%2F%2Fexample.com%2F'
  );
}

function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (found === null) throw new Error(`no field ${name} in ${html}`);
  return found[1];
}

function problemOf(html: string): string | undefined {
  return /<p class="problem"[^>]*>([^<]*)</.exec(html)?.[1];
}

const describeWithKannel = kannelInstalled() ? describe : describe.skip;
if (!kannelInstalled()) console.warn(KANNEL_MISSING);

describeWithKannel('the SMS way through Debian Kannel and fakesmsc', () => {
  let kannel: Kannel;
  beforeAll(async () => {
    kannel = await startKannel();
  }, 30_000);
  afterAll(() => kannel?.stop());

  for (const kind of databaseKinds()) {
    describe(`[${kind}]`, () => {
      let testApp: TestApp;
      let termsVersion: string;
      const clock = new ManualClock(new Date());
      const logLines: string[] = [];

      beforeAll(async () => {
        // The app listens on a port Kannel's delivery reports can reach.
        const port = await freePort();
        testApp = await startTestApp(
          kind,
          {
            WORKER_ENABLED: 'true',
            PORTAL_FORMS_PER_MINUTE: '0',
            SMS_GATEWAY: 'kannel',
            SMS_GATEWAY_URL: kannel.sendsmsUrl,
            SMS_POLL_INTERVAL_MS: '50',
            SMS_REPORT_BASE_URL: `http://127.0.0.1:${port}`,
            PHONE_CODE_PHONE_LIMIT: '3',
            PHONE_CODE_DEVICE_LIMIT: '4',
            PHONE_CODE_VENUE_LIMIT: '5',
            PHONE_CODE_PREFIX_LIMIT: '7',
            LOG_LEVEL: 'debug',
            METRICS_PORT: '0',
          },
          { clock, logDestination: { write: (line: string) => void logLines.push(line) } },
        );
        await testApp.app.listen(port, '127.0.0.1');
        const portals = testApp.app.get(VenuePortalsService);
        const portal = await portals.set(VENUE, { ways: ['sms'], displayName: 'Harbour Hotel', termsText: TERMS });
        termsVersion = portal.termsVersion ?? '';
        await portals.set(OTHER_VENUE, { ways: ['sms'], displayName: 'Quay' });
      }, 60_000);
      afterAll(() => testApp?.close());

      /** A guest's browser behind the gateway: keeps the portal cookie. */
      async function arrive(device: number, venue = VENUE) {
        const agent = request.agent(testApp.app.getHttpServer());
        expect((await agent.get(`/portal/${venue}${gatewayQuery(device)}`)).status).toBe(200);
        return agent;
      }

      async function askCode(agent: ReturnType<typeof request.agent>, phone: string, venue = VENUE) {
        const form = await agent.get(`/portal/${venue}/sms`);
        expect(form.status).toBe(200);
        return agent
          .post(`/portal/${venue}/sms`)
          .type('form')
          .send({ formToken: hidden(form.text, 'formToken'), phone, acceptTerms: 'yes', termsVersion });
      }

      async function typeCode(agent: ReturnType<typeof request.agent>, code: string, venue = VENUE) {
        const form = await agent.get(`/portal/${venue}/sms/code`);
        expect(form.status).toBe(200);
        return agent
          .post(`/portal/${venue}/sms/code`)
          .type('form')
          .send({ formToken: hidden(form.text, 'formToken'), code });
      }

      /** The code in the newest SMS fakesmsc received for `to` after `seen` messages. */
      async function codeSentTo(to: string, seen: number): Promise<string> {
        const message = await kannel.waitFor(
          (m) => m.to === to && kannel.received().indexOf(m) >= seen && /\d{6}/.test(m.text),
        );
        return /(\d{6})/.exec(message.text)![1];
      }

      /** A new window for every send limit, and past any resend pause. */
      function nextWindow() {
        clock.advance(61 * 60_000);
      }

      it('walks the SMS way: phone, code from the SMSC, hand-over, an sms user in v1, a delivery report', async () => {
        const agent = await arrive(1);
        const seen = kannel.received().length;
        const sent = await askCode(agent, '+90 (555) 100 00 01');
        expect(sent.status).toBe(303);
        expect(sent.headers.location).toBe(`/portal/${VENUE}/sms/code`);
        const page = await agent.get(`/portal/${VENUE}/sms/code`);
        expect(page.text).toContain('We sent a 6-digit code to +90 ••• 01.');
        expect(String(sent.headers['set-cookie'])).not.toMatch(/challenge|\+90/);

        const code = await codeSentTo('+905551000001', seen);
        const message = kannel.received().find((m) => m.text.includes(code))!;
        expect(message).toEqual({
          from: 'HOTSPOT',
          to: '+905551000001',
          text: `${code} is your Wi-Fi code for Harbour Hotel. It is valid for 10 minutes. Do not share it.`,
        });

        const handover = await typeCode(agent, code);
        expect(handover.status).toBe(200);
        expect(handover.text).toContain('<form id="handover" method="post" action="http://10.5.50.1/login">');
        const username = hidden(handover.text, 'username');
        expect(hidden(handover.text, 'dst')).toBe('http://example.com/');
        const user = await testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ username });
        expect(user).toMatchObject({ loginMethod: 'sms', phone: '+905551000001' });
        const v1 = await testApp.http
          .get(`/api/v1/hotspot-users/${user.id}`)
          .set('Authorization', `Bearer ${testApp.adminToken}`);
        expect(v1.status).toBe(200);
        expect(v1.body.data).toMatchObject({ loginMethod: 'sms', phone: '+905551000001', venueIds: [VENUE] });
        // The challenge is over: the visit no longer holds it.
        const after = await agent.get(`/portal/${VENUE}/sms/code`);
        expect(after.status).toBe(303);
        expect(after.headers.location).toBe(`/portal/${VENUE}/sms`);

        // Sent, its text erased; Kannel's reports (the fake SMSC's: delivered) reached the service by its reference.
        const smsRows = testApp.dataSource.getRepository(SmsMessageEntity);
        const deadline = Date.now() + 10_000;
        let row = await smsRows.findOneByOrFail({ recipient: '+905551000001' });
        while (row.delivery !== 'delivered' && Date.now() < deadline) {
          await new Promise((done) => setTimeout(done, 100));
          row = await smsRows.findOneByOrFail({ id: row.id });
        }
        const metricsAt = testApp.app.get(MetricsServer).address()!;
        const metrics = await (await fetch(`http://127.0.0.1:${metricsAt.port}/metrics`)).text();
        expect(metrics).toMatch(/^hotspot_sms_messages_total\{gateway="kannel",result="sent"[^}]*\} [1-9]/m);
        expect(metrics).toMatch(
          /^hotspot_sms_delivery_reports_total\{gateway="kannel",state="delivered"[^}]*\} [1-9]/m,
        );
        // The log speaks of the message (its id, the masked number), never of its text.
        expect(logLines.some((line) => line.includes(row.id))).toBe(true);
        expect(logLines.filter((line) => line.includes(code) || line.includes('5551000001'))).toEqual([]);
        expect(row).toMatchObject({
          status: 'sent',
          sealedContent: null,
          attempts: 1,
          delivery: 'delivered',
          gateway: 'kannel',
        });
      }, 60_000);

      it('sends Turkish as UCS-2 and a new code on resend, after the resend pause only', async () => {
        nextWindow();
        const agent = await arrive(2);
        const seen = kannel.received().length;
        const form = await agent.get(`/portal/${VENUE}/sms`).set('Accept-Language', 'tr');
        const sent = await agent
          .post(`/portal/${VENUE}/sms`)
          .set('Accept-Language', 'tr')
          .type('form')
          .send({
            formToken: hidden(form.text, 'formToken'),
            phone: '+905551000002',
            acceptTerms: 'yes',
            termsVersion,
          });
        expect(sent.status).toBe(303);
        const first = await codeSentTo('+905551000002', seen);
        expect(kannel.received().find((m) => m.text.includes(first))?.text).toBe(
          `Harbour Hotel Wi-Fi kodunuz: ${first}. 10 dakika geçerlidir, kimseyle paylaşmayın.`,
        );
        const page = await agent.get(`/portal/${VENUE}/sms/code`);
        const resend = () =>
          agent
            .post(`/portal/${VENUE}/sms/resend`)
            .type('form')
            .send({ formToken: hidden(page.text, 'formToken') });
        const early = await resend();
        expect(early.status).toBe(429);
        expect(problemOf(early.text)).toBe('A code was sent just now. You can ask for another in 60 seconds.');
        clock.advance(61_000);
        const seenAgain = kannel.received().length;
        const again = await resend();
        expect(again.status).toBe(303);
        expect(again.headers.location).toBe(`/portal/${VENUE}/sms/code?sent=1`);
        const second = await codeSentTo('+905551000002', seenAgain);
        if (second !== first) {
          const old = await typeCode(agent, first);
          expect(old.status).toBe(422);
        }
        expect((await typeCode(agent, second)).status).toBe(200);
      }, 60_000);

      it('locks a code after 5 wrong tries, and refuses a code past its 10 minutes', async () => {
        nextWindow();
        const agent = await arrive(3);
        const seen = kannel.received().length;
        expect((await askCode(agent, '+905551000003')).status).toBe(303);
        const code = await codeSentTo('+905551000003', seen);
        const wrong = code === '000000' ? '000001' : '000000';
        const answers: Array<string | undefined> = [];
        for (let i = 0; i < 5; i += 1) {
          const sent = await typeCode(agent, wrong);
          expect(sent.status).toBe(422);
          answers.push(problemOf(sent.text));
        }
        expect(answers).toEqual([
          'This code is not right. 4 tries left.',
          'This code is not right. 3 tries left.',
          'This code is not right. 2 tries left.',
          'This code is not right. One try left.',
          'Too many wrong tries. Ask for a new code.',
        ]);
        const right = await typeCode(agent, code);
        expect(right.status).toBe(422);
        expect(problemOf(right.text)).toBe('Too many wrong tries. Ask for a new code.');

        nextWindow();
        const late = await arrive(4);
        const seenLate = kannel.received().length;
        expect((await askCode(late, '+905551000004')).status).toBe(303);
        const lateCode = await codeSentTo('+905551000004', seenLate);
        clock.advance(10 * 60_000 + 1000);
        const expired = await typeCode(late, lateCode);
        expect(expired.status).toBe(422);
        expect(problemOf(expired.text)).toBe('This code has expired. Ask for a new one.');
        const rows = await testApp.dataSource.getRepository(PhoneChallengeEntity).findBy({ phone: '+905551000003' });
        expect(rows).toEqual([expect.objectContaining({ attempts: 5, verifiedAt: null })]);
        expect(rows[0].codeHash).toMatch(/^\$argon2id\$/);
      }, 60_000);

      it('limits sends per phone, per device, per venue and per country prefix, with one answer for all', async () => {
        const limited = 'Too many codes were asked for. Please try again in';
        const expectLimited = (sent: request.Response) => {
          expect(sent.status).toBe(429);
          expect(problemOf(sent.text)).toContain(limited);
          expect(Number(sent.headers['retry-after'])).toBeGreaterThan(0);
        };
        // Per phone (3): the same number from four devices, past the resend pause each time.
        nextWindow();
        for (let device = 10; device < 13; device += 1) {
          expect((await askCode(await arrive(device), '+905552000000')).status).toBe(303);
          clock.advance(61_000);
        }
        expectLimited(await askCode(await arrive(13), '+905552000000'));

        // Per device (4): one device, five numbers.
        nextWindow();
        const device = await arrive(20);
        for (let n = 1; n <= 4; n += 1) expect((await askCode(device, `+90555300000${n}`)).status).toBe(303);
        expectLimited(await askCode(device, '+905553000005'));

        // Per venue (5): five devices and numbers, then a sixth.
        nextWindow();
        for (let n = 1; n <= 5; n += 1)
          expect((await askCode(await arrive(30 + n), `+90555400000${n}`)).status).toBe(303);
        expectLimited(await askCode(await arrive(36), '+905554000006'));
        // Another venue is counted apart.
        expect((await askCode(await arrive(37, OTHER_VENUE), '+905554000007', OTHER_VENUE)).status).toBe(303);

        // Per country prefix (7), across venues: seven +44 numbers, then an eighth; +90 still goes.
        nextWindow();
        for (let n = 1; n <= 7; n += 1) {
          const venue = n <= 4 ? VENUE : OTHER_VENUE;
          expect((await askCode(await arrive(40 + n, venue), `+4420794600${n}0`, venue)).status).toBe(303);
        }
        expectLimited(await askCode(await arrive(48, OTHER_VENUE), '+442079460080', OTHER_VENUE));
        expect((await askCode(await arrive(49, OTHER_VENUE), '+905554000009', OTHER_VENUE)).status).toBe(303);
      }, 120_000);

      it('sends one code when two devices ask for the same number at once', async () => {
        nextWindow();
        const agents = await Promise.all([arrive(60), arrive(61), arrive(62)]);
        const sent = await Promise.all(agents.map((agent) => askCode(agent, '+905556000000')));
        expect(sent.map((answer) => answer.status).sort()).toEqual([303, 429, 429]);
        const challenges = await testApp.dataSource
          .getRepository(PhoneChallengeEntity)
          .countBy({ phone: '+905556000000' });
        expect(challenges).toBe(1);
      });

      it('answers a phone that already has a user exactly as one that has none', async () => {
        nextWindow();
        // +905551000001 became an sms user in the first test.
        const known = await arrive(50);
        const unknown = await arrive(51);
        const pages = [];
        for (const [agent, phone] of [
          [known, '+905551000001'],
          [unknown, '+905559999999'],
        ] as const) {
          const seen = kannel.received().length;
          const sent = await askCode(agent, phone);
          const code = await agent.get(`/portal/${VENUE}/sms/code`);
          const wrong = await typeCode(
            agent,
            (Number(await codeSentTo(phone, seen)) + 1).toString().padStart(6, '0').slice(-6),
          );
          const scrub = (html: string) => html.replace(/value="[^"]*"/g, '').replace(/\+90 ••• \d\d/g, 'PHONE');
          pages.push({
            status: [sent.status, code.status, wrong.status],
            code: scrub(code.text),
            wrong: scrub(wrong.text),
          });
        }
        expect(pages[0]).toEqual(pages[1]);
        const identities = await testApp.dataSource
          .getRepository(GuestIdentityEntity)
          .countBy({ subject: '+905551000001' });
        expect(identities).toBe(1);
      }, 60_000);

      it('sweeps challenges a day past their expiry and counters whose window closed', async () => {
        const repository = testApp.dataSource.getRepository(PhoneChallengeEntity);
        expect(await repository.count()).toBeGreaterThan(0);
        clock.advance(2 * 86_400_000);
        await testApp.app.get(PhoneVerificationService).sweep();
        expect(await repository.count()).toBe(0);
        expect(await testApp.dataSource.getRepository(PhoneCodeCounterEntity).count()).toBe(0);
      });

      it('refuses a delivery report for an unknown reference or without a state', async () => {
        const unknown = await testApp.http.get(`/sms/reports/${'x'.repeat(32)}?type=1`);
        expect(unknown.status).toBe(404);
        const noState = await testApp.http.get(`/sms/reports/${'x'.repeat(32)}`);
        expect(noState.status).toBe(400);
      });
    });
  }
});

describe('the http gateway against a real HTTP provider', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }> = [];
  let answer = { status: 201, body: '{"sid":"SM0001"}' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const message = {
    id: 'm1',
    to: '+905551234567',
    text: 'Kod: 123456 ş&',
    reportUrl: 'https://hotspot.example/sms/reports/r1',
  };
  const signal = new AbortController().signal;

  it('posts a Twilio-style form with basic auth and a status callback', async () => {
    const driver = new HttpDriver({
      url: `${url}/2010-04-01/Accounts/AC1/Messages.json`,
      sender: 'Hotel',
      timeoutMs: 2000,
      http: {
        method: 'POST',
        contentType: 'application/x-www-form-urlencoded',
        headers: { Authorization: 'Basic QUMxOnRva2Vu' },
        body: 'To={{to}}&From={{from}}&Body={{text}}&StatusCallback={{reportUrl}}',
        acceptPattern: /"sid":"(\w+)"/,
      },
    });
    expect(await driver.send(message, signal)).toEqual({ verdict: 'accepted', providerId: 'SM0001' });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/2010-04-01/Accounts/AC1/Messages.json');
    expect(request.headers.authorization).toBe('Basic QUMxOnRva2Vu');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      To: '+905551234567',
      From: 'Hotel',
      Body: 'Kod: 123456 ş&',
      StatusCallback: 'https://hotspot.example/sms/reports/r1',
    });
  });

  it('sends a JSON body (a Turkish provider), retries a 5xx and refuses a 4xx', async () => {
    const driver = new HttpDriver({
      url: `${url}/sms/send`,
      sender: 'OTEL',
      timeoutMs: 2000,
      http: {
        method: 'POST',
        contentType: 'application/json',
        headers: { 'X-Api-Key': 'k1' },
        body: '{"header":"{{from}}","gsm":"{{toDigits}}","message":"{{text}}"}',
        acceptPattern: /^00 (\d+)/,
      },
    });
    answer = { status: 200, body: '00 987654' };
    expect(await driver.send(message, signal)).toEqual({ verdict: 'accepted', providerId: '987654' });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ header: 'OTEL', gsm: '905551234567', message: 'Kod: 123456 ş&' });
    expect(seen.at(-1)!.headers['content-type']).toBe('application/json');
    answer = { status: 503, body: 'busy' };
    expect((await driver.send(message, signal)).verdict).toBe('retry');
    answer = { status: 401, body: 'bad key' };
    expect(await driver.send(message, signal)).toEqual({
      verdict: 'refused',
      reason: 'provider answered 401: bad key',
    });
  });

  it('calls a GET API with the values in its URL, and takes an unreachable provider for a retry', async () => {
    answer = { status: 200, body: 'OK' };
    const driver = new HttpDriver({
      url: `${url}/api?to={{toDigits}}&msg={{text}}`,
      sender: null,
      timeoutMs: 2000,
      http: { method: 'GET', contentType: 'text/plain', headers: {}, body: null, acceptPattern: null },
    });
    expect((await driver.send(message, signal)).verdict).toBe('accepted');
    expect(new URL(seen.at(-1)!.path, url).searchParams.get('msg')).toBe('Kod: 123456 ş&');
    const gone = new HttpDriver({
      url: 'http://127.0.0.1:9/x',
      sender: null,
      timeoutMs: 2000,
      http: { method: 'GET', contentType: 'text/plain', headers: {}, body: null, acceptPattern: null },
    });
    expect((await gone.send(message, signal)).verdict).toBe('retry');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}
