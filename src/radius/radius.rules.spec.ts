import { normaliseMac } from '../common/validation/normalise.js';
import {
  accountingStep,
  attemptUserLookup,
  REJECT_MESSAGES,
  rejectReasonOfMessage,
  addressOrNull,
  combineOctets,
  decideLogin,
  encodeClass,
  latestOf,
  loginMethodOf,
  maxCounter,
  offlineReason,
  reportsLess,
  reportsProgress,
  recordedSource,
  restartedSource,
  sessionOwnerOf,
  sessionStartedAt,
  userIdOfClass,
} from './radius.rules.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');
const LIMITS = { maxSessionSeconds: 86_400, maxSessionsPerUser: 0 };
const user = (overrides: Partial<Parameters<typeof decideLogin>[0]> = {}) => ({
  id: 'u1',
  status: 'active' as const,
  expiresAt: null,
  inVenue: true,
  ...overrides,
});

describe('sessionStartedAt', () => {
  it('is the arrival less the session time and the delay', () => {
    expect(sessionStartedAt(NOW, 60, 5, null)).toEqual(new Date(NOW.getTime() - 65_000));
    expect(sessionStartedAt(NOW, null, 0, null)).toEqual(NOW);
  });

  it('is never before the user existed, whatever Acct-Session-Time says', () => {
    const created = new Date(NOW.getTime() - 3_600_000);
    expect(sessionStartedAt(NOW, 4_294_967_295, 0, created)).toEqual(created);
    expect(sessionStartedAt(NOW, 60, 0, created)).toEqual(new Date(NOW.getTime() - 60_000));
  });
});

describe('offlineReason', () => {
  it('is null for an active user of the venue whose expiresAt lies ahead', () => {
    expect(offlineReason(user({ expiresAt: new Date(NOW.getTime() + 1) }), NOW)).toBeNull();
  });

  it.each([
    [user({ status: 'blocked' }), 'blocked'],
    [user({ status: 'expired' }), 'expired'],
    [user({ expiresAt: NOW }), 'expired'],
    [user({ inVenue: false }), 'wrongVenue'],
    [user({ status: 'blocked', inVenue: false }), 'blocked'],
  ])('is %j: %s', (standing, reason) => {
    expect(offlineReason(standing, NOW)).toBe(reason);
  });
});

describe('decideLogin', () => {
  it('accepts an active user of the venue with its Session-Timeout', () => {
    expect(decideLogin(user(), 0, LIMITS, NOW)).toEqual({
      accepted: true,
      userId: 'u1',
      sessionTimeout: 86_400,
    });
  });

  it.each([
    [user({ status: 'blocked' }), 'blocked'],
    [user({ status: 'expired' }), 'expired'],
    [user({ expiresAt: NOW }), 'expired'],
    [user({ inVenue: false }), 'wrongVenue'],
  ])('refuses %j as %s', (candidate, reason) => {
    expect(decideLogin(candidate, 0, LIMITS, NOW)).toEqual({ accepted: false, reason });
  });

  it('refuses at the session limit, and has none when it is 0', () => {
    expect(decideLogin(user(), 2, { ...LIMITS, maxSessionsPerUser: 2 }, NOW)).toEqual({
      accepted: false,
      reason: 'tooManySessions',
    });
    expect(decideLogin(user(), 1, { ...LIMITS, maxSessionsPerUser: 2 }, NOW).accepted).toBe(true);
    expect(decideLogin(user(), 99, LIMITS, NOW).accepted).toBe(true);
  });
});

describe('loginMethodOf', () => {
  const method = (username: string | null, password: string | null, callingStationId: string | null) =>
    loginMethodOf({ username, password, callingStationId }, normaliseMac);

  it('MAC authentication: the User-Name is the Calling-Station-Id MAC, without password or with it repeated', () => {
    expect(method('aa-bb-cc-dd-ee-ff', null, 'AA:BB:CC:DD:EE:FF')).toMatchObject({
      kind: 'mac',
      mac: 'AA:BB:CC:DD:EE:FF',
    });
    expect(method('aabbccddeeff', 'AABB.CCDD.EEFF', 'aa:bb:cc:dd:ee:ff')).toMatchObject({ kind: 'mac' });
  });

  it('PAP otherwise when there is a password; nothing usable without one', () => {
    expect(method('aa-bb-cc-dd-ee-ff', 'secret', 'AA:BB:CC:DD:EE:FF')).toEqual({
      kind: 'pap',
      username: 'aa-bb-cc-dd-ee-ff',
      password: 'secret',
    });
    expect(method('aa-bb-cc-dd-ee-ff', null, '11:22:33:44:55:66')).toEqual({ kind: 'unsupported' });
    expect(method('alice', null, null)).toEqual({ kind: 'unsupported' });
    expect(method(null, 'secret', null)).toEqual({ kind: 'noUsername' });
    expect(method('', null, 'AA:BB:CC:DD:EE:FF')).toEqual({ kind: 'noUsername' });
  });
});

describe('rejectReasonOfMessage', () => {
  it('names the reason of each Reply-Message authorize answers', () => {
    for (const [reason, message] of Object.entries(REJECT_MESSAGES)) {
      expect(rejectReasonOfMessage(message)).toBe(reason);
    }
    expect(rejectReasonOfMessage(' Account blocked ')).toBe('blocked');
  });

  it('null for no header, an empty one (an Accept) or any other text', () => {
    expect(rejectReasonOfMessage(undefined)).toBeNull();
    expect(rejectReasonOfMessage(null)).toBeNull();
    expect(rejectReasonOfMessage('')).toBeNull();
    expect(rejectReasonOfMessage('account blocked')).toBeNull();
    expect(rejectReasonOfMessage('blocked')).toBeNull();
    expect(rejectReasonOfMessage('x'.repeat(100_000))).toBeNull();
  });
});

describe('attemptUserLookup', () => {
  const lookup = (
    classUserId: string | null,
    username: string | null,
    password: string | null,
    callingStationId: string | null = null,
  ) => attemptUserLookup(classUserId, username, loginMethodOf({ username, password, callingStationId }, normaliseMac));

  it("the Class's user first, whatever the request", () => {
    expect(lookup('u1', 'room-1', 'pw')).toEqual({ kind: 'class', userId: 'u1' });
    expect(lookup('u1', null, null)).toEqual({ kind: 'class', userId: 'u1' });
  });

  it('a MAC login: the guest with the MAC, then the User-Name, as authorize tries them', () => {
    expect(lookup(null, 'aa-bb-cc-dd-ee-ff', null, 'AA:BB:CC:DD:EE:FF')).toEqual({
      kind: 'macOrUsername',
      mac: 'AA:BB:CC:DD:EE:FF',
      username: 'aa-bb-cc-dd-ee-ff',
    });
  });

  it('PAP, and a method authorize refuses (CHAP: no User-Password), by User-Name', () => {
    expect(lookup(null, 'room-1', 'wrong')).toEqual({ kind: 'username', username: 'room-1' });
    expect(lookup(null, 'room-1', null)).toEqual({ kind: 'username', username: 'room-1' });
    // A MAC as User-Name from another device is a plain username.
    expect(lookup(null, 'aa-bb-cc-dd-ee-ff', 'pw', '02:00:00:00:00:01')).toEqual({
      kind: 'username',
      username: 'aa-bb-cc-dd-ee-ff',
    });
  });

  it('nobody without a User-Name', () => {
    expect(lookup(null, null, 'pw')).toEqual({ kind: 'none' });
    expect(lookup(null, '', 'pw')).toEqual({ kind: 'none' });
  });
});

describe('Class', () => {
  it('round-trips the user id as octets, and ignores Class values of other systems', () => {
    const id = '019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b47';
    expect(encodeClass(id)).toMatch(/^0x[0-9a-f]+$/);
    expect(userIdOfClass(['0x0102', encodeClass(id)])).toBe(id);
    expect(userIdOfClass([`hsp:${id}`])).toBe(id);
    expect(userIdOfClass(['0x' + Buffer.from('other:thing').toString('hex'), 'hsp:bad id!'])).toBeNull();
  });
});

describe('octet counters', () => {
  it('adds gigawords · 2³², exact beyond 2⁵³, capped at the signed 64-bit maximum', () => {
    expect(combineOctets(5, 1)).toBe(String(2 ** 32 + 5));
    expect(combineOctets(null, null)).toBeNull();
    expect(combineOctets(4_294_967_295, 4_294_967_295)).toBe('9223372036854775807');
    expect(combineOctets(1, 3_000_000)).toBe('12884901888000001');
  });

  it('never goes back', () => {
    expect(maxCounter('12884901888000001', '12884901888000000')).toBe('12884901888000001');
    expect(maxCounter(null, '7')).toBe('7');
    expect(maxCounter('7', null)).toBe('7');
  });

  it('keeps the later time of the last report: a packet handled after a newer one never moves it back', () => {
    const earlier = new Date(NOW.getTime() - 60_000);
    expect(latestOf(null, NOW)).toEqual(NOW);
    expect(latestOf(earlier, NOW)).toEqual(NOW);
    expect(latestOf(NOW, earlier)).toEqual(NOW);
  });
});

describe('accountingStep', () => {
  const active = { status: 'active' };
  const stopped = { status: 'stopped' };

  it('creates the session for Start, Interim or Stop without one (Stop: ended)', () => {
    expect(accountingStep('Start', null, true, true)).toEqual({ kind: 'insert', ended: false });
    expect(accountingStep('Interim-Update', null, true, true)).toEqual({ kind: 'insert', ended: false });
    expect(accountingStep('Stop', null, true, true)).toEqual({ kind: 'insert', ended: true });
  });

  it('a retransmitted Start changes nothing; Interim updates; Stop ends; an ended session only takes counters', () => {
    expect(accountingStep('Start', active, true, true)).toEqual({ kind: 'ignore' });
    expect(accountingStep('Interim-Update', active, true, true)).toEqual({ kind: 'update', ends: false });
    expect(accountingStep('Stop', active, true, true)).toEqual({ kind: 'update', ends: true });
    expect(accountingStep('Stop', stopped, true, true)).toEqual({ kind: 'update', ends: false });
    expect(accountingStep('Start', stopped, false, true)).toEqual({ kind: 'ignore' });
  });

  it('enforces on a new or active session of a user who may not be online', () => {
    expect(accountingStep('Start', null, false, true)).toEqual({ kind: 'enforce', insert: true });
    expect(accountingStep('Interim-Update', active, false, true)).toEqual({ kind: 'enforce', insert: false });
    expect(accountingStep('Stop', active, false, true)).toEqual({ kind: 'update', ends: true });
  });

  it('an ended session an Interim-Update shows going on is enforced again, or online again', () => {
    const expired = { status: 'expired' };
    expect(accountingStep('Interim-Update', expired, false, true)).toEqual({ kind: 'enforceAgain' });
    expect(accountingStep('Interim-Update', stopped, false, true)).toEqual({ kind: 'enforceAgain' });
    expect(accountingStep('Interim-Update', stopped, true, true)).toEqual({ kind: 'reopen' });
    expect(accountingStep('Interim-Update', expired, true, true)).toEqual({ kind: 'reopen' });
  });

  it('an ended session takes the counters of a packet that shows no progress, and of a Stop', () => {
    const expired = { status: 'expired' };
    expect(accountingStep('Interim-Update', expired, false, false)).toEqual({ kind: 'update', ends: false });
    expect(accountingStep('Interim-Update', stopped, true, false)).toEqual({ kind: 'update', ends: false });
    expect(accountingStep('Stop', expired, false, true)).toEqual({ kind: 'update', ends: false });
  });
});

describe('reportsProgress and reportsLess', () => {
  const at = (sessionTime: number | null, inputOctets: string | null = null, outputOctets: string | null = null) => ({
    sessionTime,
    inputOctets,
    outputOctets,
  });

  it('a longer Acct-Session-Time is progress; the same or a shorter one is not', () => {
    expect(reportsProgress(at(300), at(301))).toBe(true);
    expect(reportsProgress(at(null), at(1))).toBe(true);
    expect(reportsProgress(at(300), at(300, '999'))).toBe(false);
    expect(reportsProgress(at(300), at(100))).toBe(false);
  });

  it('without a session time, more octets in either direction is progress', () => {
    expect(reportsProgress(at(null, '10', '10'), at(null, '11', '10'))).toBe(true);
    expect(reportsProgress(at(null, '10', '10'), at(null, '10', '18446744073709551615'))).toBe(true);
    expect(reportsProgress(at(null, '10', '10'), at(null, '10', '10'))).toBe(false);
    expect(reportsProgress(at(null, '10', '10'), at(null, null, null))).toBe(false);
  });

  it('a packet is older only by a shorter session time than the stored one', () => {
    expect(reportsLess(at(300), at(100))).toBe(true);
    expect(reportsLess(at(300), at(300))).toBe(false);
    expect(reportsLess(at(null), at(100))).toBe(false);
    expect(reportsLess(at(300), at(null))).toBe(false);
  });
});

describe('sessionOwnerOf', () => {
  it('names the user of the Class first', () => {
    expect(sessionOwnerOf('0190-user', 'Alice', 'lobby')).toEqual({ userId: '0190-user' });
  });

  it('else the holder of the User-Name in the venue, by its case-insensitive key', () => {
    expect(sessionOwnerOf(null, 'Alice', 'lobby')).toEqual({ venueId: 'lobby', usernameKey: 'alice' });
  });

  it('names nobody without a Class and a usable User-Name', () => {
    expect(sessionOwnerOf(null, null, 'lobby')).toBeNull();
    expect(sessionOwnerOf(null, '', 'lobby')).toBeNull();
    expect(sessionOwnerOf(null, 'x'.repeat(65), 'lobby')).toBeNull();
  });
});

describe('addressOrNull', () => {
  it('keeps IPv4 and IPv6 addresses, drops anything else', () => {
    expect(addressOrNull('10.0.0.5')).toBe('10.0.0.5');
    expect(addressOrNull('2001:db8::5')).toBe('2001:db8::5');
    for (const value of ['not-an-ip', '10.0.0.256', '', 'x'.repeat(60), null]) expect(addressOrNull(value)).toBeNull();
  });
});

describe('recordedSource', () => {
  it('keeps the source address a session records, at most 45 characters', () => {
    expect(recordedSource({ sourceIp: '10.0.0.8' })).toBe('10.0.0.8');
    expect(recordedSource({ sourceIp: 'x'.repeat(60) })).toBe('x'.repeat(45));
    expect(recordedSource({})).toBeNull();
  });
});

describe('restartedSource', () => {
  it('a NAS registered as a network restarts one host at a time; a single address, all its sessions', () => {
    expect(restartedSource({ sourceIp: '10.0.0.8', network: true })).toBe('10.0.0.8');
    expect(restartedSource({ sourceIp: '10.0.0.8', network: false })).toBeNull();
    expect(restartedSource({ network: true })).toBeNull();
  });
});
