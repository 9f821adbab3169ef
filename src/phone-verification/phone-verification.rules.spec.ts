import {
  challengeState,
  CODE_TRIES,
  countryCodeOf,
  deviceKeyOf,
  e164Of,
  newCode,
  sendCounters,
  smsTextOf,
  typedCode,
  type SendLimits,
} from './phone-verification.rules.js';

const ANY = { defaultCountryCode: null, countryCodes: [] };

describe('phone verification rules', () => {
  it('normalises a typed phone to E.164 with the project phone rule', () => {
    expect(e164Of('+90 (555) 123-45-67', ANY)).toEqual({ phone: '+905551234567' });
    expect(e164Of('0090 555 123 45 67', ANY)).toEqual({ phone: '+905551234567' });
    expect(e164Of('0555 123 45 67', ANY)).toEqual({ problem: 'international' });
    expect(e164Of('0555 123 45 67', { ...ANY, defaultCountryCode: '90' })).toEqual({ phone: '+905551234567' });
    expect(e164Of('555 123 45 67', { ...ANY, defaultCountryCode: '90' })).toEqual({ problem: 'international' });
    expect(e164Of('+90 555 abc', ANY)).toEqual({ problem: 'invalid' });
    expect(e164Of('+12345', ANY)).toEqual({ problem: 'invalid' });
    expect(e164Of('+1234567890123456', ANY)).toEqual({ problem: 'invalid' });
    expect(e164Of('', ANY)).toEqual({ problem: 'invalid' });
    expect(e164Of('+44 20 7946 0000', { ...ANY, countryCodes: ['90'] })).toEqual({ problem: 'country' });
    expect(e164Of('+90 555 123 45 67', { ...ANY, countryCodes: ['90'] })).toEqual({ phone: '+905551234567' });
  });

  it('finds the country calling code of one, two or three digits', () => {
    expect(countryCodeOf('+12025550100')).toBe('1');
    expect(countryCodeOf('+79161234567')).toBe('7');
    expect(countryCodeOf('+905551234567')).toBe('90');
    expect(countryCodeOf('+442079460000')).toBe('44');
    expect(countryCodeOf('+3531234567')).toBe('353');
    expect(countryCodeOf('+8801712345678')).toBe('880');
  });

  it('makes 6-digit codes and reads typed ones', () => {
    for (let i = 0; i < 50; i += 1) expect(newCode()).toMatch(/^\d{6}$/);
    expect(typedCode(' 123 456 ')).toBe('123456');
    expect(typedCode('012-345')).toBe('012345');
    expect(typedCode('12345')).toBeNull();
    expect(typedCode('12345a')).toBeNull();
  });

  it('counts a device by its MAC, else its address', () => {
    expect(deviceKeyOf({ mac: 'AA:BB:CC:DD:EE:FF', ip: '10.0.0.2' })).toBe('mac:aa:bb:cc:dd:ee:ff');
    expect(deviceKeyOf({ mac: null, ip: '10.0.0.2' })).toBe('ip:10.0.0.2');
    expect(deviceKeyOf({ mac: null, ip: null })).toBeNull();
  });

  it('adds a send to each limited scope, in a fixed order, in fixed windows', () => {
    const limits: SendLimits = {
      phone: { sends: 3, windowMs: 3_600_000 },
      device: { sends: 0, windowMs: 60_000 },
      venue: { sends: 100, windowMs: 600_000 },
      prefix: { sends: 50, windowMs: 3_600_000 },
    };
    const now = new Date('2026-11-28T10:17:30.000Z');
    const counters = sendCounters({ phone: '+905551234567', deviceKey: null, venueId: 'lobby', now }, limits);
    expect(counters).toEqual([
      {
        scope: 'phone',
        subject: '+905551234567',
        windowStart: new Date('2026-11-28T10:00:00.000Z'),
        windowEnd: new Date('2026-11-28T11:00:00.000Z'),
        limit: 3,
      },
      {
        scope: 'venue',
        subject: 'lobby',
        windowStart: new Date('2026-11-28T10:10:00.000Z'),
        windowEnd: new Date('2026-11-28T10:20:00.000Z'),
        limit: 100,
      },
      {
        scope: 'prefix',
        subject: '90',
        windowStart: new Date('2026-11-28T10:00:00.000Z'),
        windowEnd: new Date('2026-11-28T11:00:00.000Z'),
        limit: 50,
      },
    ]);
    const withDevice = sendCounters(
      { phone: '+905551234567', deviceKey: null, venueId: 'lobby', now },
      { ...limits, device: { sends: 5, windowMs: 60_000 } },
    );
    expect(withDevice[1]).toMatchObject({ scope: 'device', subject: 'unknown:lobby' });
  });

  it('says whether a challenge is open, verified, locked or expired', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    const open = { attempts: 0, expiresAt: new Date('2026-11-28T10:05:00Z'), verifiedAt: null };
    expect(challengeState(open, now)).toBe('open');
    expect(challengeState({ ...open, attempts: CODE_TRIES - 1 }, now)).toBe('open');
    expect(challengeState({ ...open, attempts: CODE_TRIES }, now)).toBe('locked');
    expect(challengeState({ ...open, expiresAt: now }, now)).toBe('expired');
    expect(challengeState({ ...open, verifiedAt: now }, now)).toBe('verified');
  });

  it('fills the SMS text from the catalogue sentence', () => {
    expect(smsTextOf('{code} is your code for {venue}.', { code: '012345', venue: 'Lobby' })).toBe(
      '012345 is your code for Lobby.',
    );
  });
});
