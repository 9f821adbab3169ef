import { sha256Hex } from '../common/sha256.js';
import { generateKeyPairSync } from 'node:crypto';
import {
  dayBounds,
  dayOf,
  fileBytes,
  fileNameOf,
  guestIdentityOf,
  GENESIS_SHA256,
  headerLine,
  identityOf,
  inFileOrder,
  isDay,
  lastSealableDay,
  nextDay,
  previousDay,
  recordLine,
  type RecordLine,
  signatureHolds,
  signBytes,
  verifyFolder,
  zoneOf,
  type FolderFile,
} from './access-records.rules.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

const record: RecordLine = {
  sessionId: 's-1',
  startedAt: new Date('2026-11-27T08:00:00.000Z'),
  endedAt: new Date('2026-11-27T09:30:00.000Z'),
  nasId: 'lobby-ap',
  ipAddress: '10.0.0.7',
  macAddress: 'AA:BB:CC:00:00:01',
  userId: 'u-1',
  loginMethod: 'sms',
  identityKind: 'phone',
  identityIssuer: '',
  identity: '+905551112233',
};

/** A venue's day file as the service writes it, chained to `previous` (null: the chain's first). */
function dayFile(
  day: string,
  previous: { day: string; sha256: string } | null,
  records: RecordLine[] = [record],
): FolderFile & { sha256: string } {
  const { from, to } = dayBounds(day, 'UTC');
  const bytes = fileBytes([
    headerLine({
      venue: 'lobby',
      day,
      timeZone: 'UTC',
      from,
      to,
      records: records.length,
      previousDay: previous?.day ?? null,
      previousSha256: previous?.sha256 ?? GENESIS_SHA256,
      sealedAt: to,
    }),
    ...records.map(recordLine),
  ]);
  return { name: fileNameOf('lobby', day), bytes, signature: signBytes(bytes, privateKey), sha256: sha256Hex(bytes) };
}

function chainOf(...days: string[]): Array<FolderFile & { sha256: string }> {
  const files: Array<FolderFile & { sha256: string }> = [];
  for (const day of days) {
    const before = files.at(-1);
    files.push(dayFile(day, before === undefined ? null : { day: previousDay(day), sha256: before.sha256 }));
  }
  return files;
}

describe('access records rules', () => {
  describe('identityOf', () => {
    const user = { loginMethod: 'sms', username: null, phone: '+905551112233', macAddress: null };

    it('names each login method by what the regulator asks for', () => {
      expect(identityOf(user, 'AA:BB:CC:00:00:01', null, null)).toEqual({
        kind: 'phone',
        issuer: '',
        identity: '+905551112233',
      });
      expect(identityOf(user, 'AA:BB:CC:00:00:01', '+905550000000', null).identity).toBe('+905550000000');
      expect(
        identityOf({ ...user, loginMethod: 'social', phone: null }, 'AA:BB:CC:00:00:01', null, {
          issuer: 'https://id.example',
          subject: 'abc',
        }),
      ).toEqual({ kind: 'social', issuer: 'https://id.example', identity: 'abc' });
      expect(
        identityOf({ ...user, loginMethod: 'username_password', username: 'room101' }, 'AA:BB:CC:00:00:01', null, null),
      ).toEqual({ kind: 'username', issuer: '', identity: 'room101' });
      expect(identityOf({ ...user, loginMethod: 'guest', macAddress: null }, 'AA:BB:CC:00:00:01', null, null)).toEqual({
        kind: 'mac',
        issuer: '',
        identity: 'AA:BB:CC:00:00:01',
      });
    });

    it('falls back to the username, then the MAC, when the method lacks its identity', () => {
      expect(
        identityOf({ loginMethod: 'social', username: 'guest-7', phone: null, macAddress: null }, 'M', null, null),
      ).toEqual({ kind: 'username', issuer: '', identity: 'guest-7' });
      expect(
        identityOf({ loginMethod: 'sms', username: null, phone: null, macAddress: null }, 'M', null, null),
      ).toEqual({ kind: 'mac', issuer: '', identity: 'M' });
    });
  });

  describe('guestIdentityOf', () => {
    it("takes the user's most recently used identity of the kind at the session's venue", () => {
      const identities = [
        { userId: 'u-2', venueId: 'lobby', kind: 'phone', issuer: '', subject: '+905550000002' },
        { userId: 'u-1', venueId: 'spa', kind: 'phone', issuer: '', subject: '+905550000003' },
        { userId: 'u-1', venueId: 'lobby', kind: 'social', issuer: 'https://id.example', subject: 'abc' },
        { userId: 'u-1', venueId: 'lobby', kind: 'phone', issuer: '', subject: '+905550000001' },
        { userId: 'u-1', venueId: 'lobby', kind: 'phone', issuer: '', subject: '+905550000009' },
      ];
      expect(guestIdentityOf(identities, 'u-1', 'lobby', 'phone')?.subject).toBe('+905550000001');
      expect(guestIdentityOf(identities, 'u-1', 'lobby', 'social')?.subject).toBe('abc');
      expect(guestIdentityOf(identities, 'u-1', 'bar', 'phone')).toBeNull();
    });
  });

  describe('days', () => {
    it("counts days in the venue's time zone, UTC when it has none or an unknown one", () => {
      const instant = new Date('2026-11-27T22:30:00.000Z');
      expect(dayOf(instant, 'UTC')).toBe('2026-11-27');
      expect(dayOf(instant, 'Europe/Istanbul')).toBe('2026-11-28');
      expect(zoneOf(null)).toBe('UTC');
      expect(zoneOf('Mars/Olympus')).toBe('UTC');
      expect(dayBounds('2026-11-28', 'Europe/Istanbul')).toEqual({
        from: new Date('2026-11-27T21:00:00.000Z'),
        to: new Date('2026-11-28T21:00:00.000Z'),
      });
      expect(nextDay('2026-12-31')).toBe('2027-01-01');
      expect(previousDay('2024-03-01')).toBe('2024-02-29');
      expect(isDay('2026-02-29')).toBe(false);
      expect(isDay('2026-11-27')).toBe(true);
    });

    it('seals a day ten minutes after it ended', () => {
      expect(lastSealableDay(new Date('2026-11-28T00:09:59.000Z'), 'UTC')).toBe('2026-11-26');
      expect(lastSealableDay(new Date('2026-11-28T00:10:00.000Z'), 'UTC')).toBe('2026-11-27');
    });
  });

  describe('canonical lines', () => {
    it('writes a record with its keys in a fixed order, the end null while the session goes on', () => {
      expect(recordLine(record)).toBe(
        '{"session":"s-1","from":"2026-11-27T08:00:00.000Z","to":"2026-11-27T09:30:00.000Z","nas":"lobby-ap",' +
          '"ip":"10.0.0.7","mac":"AA:BB:CC:00:00:01","userId":"u-1","loginMethod":"sms","identityKind":"phone",' +
          '"issuer":"","identity":"+905551112233"}',
      );
      expect(JSON.parse(recordLine({ ...record, endedAt: null, ipAddress: null }))).toMatchObject({
        to: null,
        ip: null,
      });
    });

    it('orders records by start, then session id, whatever order they were read in', () => {
      const later = { ...record, sessionId: 's-0', startedAt: new Date('2026-11-27T10:00:00.000Z') };
      const twin = { ...record, sessionId: 's-0' };
      expect(inFileOrder([later, record, twin]).map((line) => line.sessionId)).toEqual(['s-0', 's-1', 's-0']);
      expect(inFileOrder([later, record, twin])[2]).toBe(later);
    });

    it('ends every line with a newline, in UTF-8', () => {
      expect(fileBytes(['{"a":"ş"}', '{}']).toString('hex')).toBe(Buffer.from('{"a":"ş"}\n{}\n').toString('hex'));
    });
  });

  describe('signature', () => {
    it('signs the exact bytes: one byte changed and it no longer holds', () => {
      const { bytes } = dayFile('2026-11-27', null);
      const signature = signBytes(bytes, privateKey);
      expect(signature).toHaveLength(64);
      expect(signatureHolds(bytes, signature, publicKey)).toBe(true);
      const changed = Buffer.from(bytes);
      changed[changed.length - 4] ^= 1; // a digit of the phone
      expect(signatureHolds(changed, signature, publicKey)).toBe(false);
      expect(signatureHolds(bytes, signature, generateKeyPairSync('ed25519').publicKey)).toBe(false);
      expect(signatureHolds(bytes, Buffer.from('short'), publicKey)).toBe(false);
    });
  });

  describe('verifyFolder', () => {
    it('passes a chain of days, its first starting anywhere', () => {
      const check = verifyFolder(chainOf('2026-11-25', '2026-11-26', '2026-11-27'), publicKey);
      expect(check).toMatchObject({ ok: true, chain: [] });
      expect(check.files.map((file) => [file.day, file.records, file.problems])).toEqual([
        ['2026-11-25', 1, []],
        ['2026-11-26', 1, []],
        ['2026-11-27', 1, []],
      ]);
    });

    it('finds a missing day', () => {
      const [first, , third] = chainOf('2026-11-25', '2026-11-26', '2026-11-27');
      const check = verifyFolder([first, third], publicKey);
      expect(check.ok).toBe(false);
      expect(check.chain).toEqual([
        'lobby: 2026-11-27 follows 2026-11-26, whose file is missing (the folder goes from 2026-11-25)',
      ]);
    });

    it('finds a day replaced by another signed file', () => {
      const [first, second] = chainOf('2026-11-26', '2026-11-27');
      const forged = dayFile('2026-11-26', null, []);
      const check = verifyFolder([forged, second], publicKey);
      expect(check.files.every((file) => file.problems.length === 0)).toBe(true);
      expect(check.chain).toEqual([
        'lobby: 2026-11-26 is not the file 2026-11-27 names (SHA-256 differs): changed or replaced',
      ]);
      expect(verifyFolder([first, second], publicKey).ok).toBe(true);
    });

    it('finds a changed byte, a missing signature and a wrong count', () => {
      const [file] = chainOf('2026-11-27');
      const changed = Buffer.from(file.bytes);
      changed[changed.length - 4] ^= 1; // a digit of the phone
      expect(verifyFolder([{ ...file, bytes: changed }], publicKey).files[0].problems).toEqual([
        'the signature does not match the file (changed, or signed by another key)',
      ]);
      expect(verifyFolder([{ ...file, signature: null }], publicKey).files[0].problems).toEqual([
        'lobby.2026-11-27.jsonl.sig is missing',
      ]);
      const extra = Buffer.concat([file.bytes, Buffer.from('{}\n')]);
      const counted = verifyFolder([{ ...file, bytes: extra, signature: signBytes(extra, privateKey) }], publicKey);
      expect(counted.files[0].problems).toEqual(['the first line says 1 record(s), the file has 2']);
      const garbage = Buffer.from('not json\n');
      expect(
        verifyFolder([{ name: 'x.jsonl', bytes: garbage, signature: signBytes(garbage, privateKey) }], publicKey),
      ).toMatchObject({ ok: false, files: [{ problems: ['the first line is not JSON'] }] });
    });
  });
});
