import { sha256Hex } from '../common/sha256.js';
import { type KeyObject, sign, verify } from 'node:crypto';
import { isTimeZone } from '../common/validation/time-zone.js';
import { dayEnd, dayStart } from '../web/zoned-time.js';
import type { IdentityKind } from './entities/access-record.entity.js';

/**
 * The rules of the records for the regulator: whose identity a record names, a venue's days, the
 * canonical lines of a day's file, its hash chain and signature, and the checks `verify` makes.
 * Pure (node:crypto's hashing and Ed25519 are deterministic): no database, no files.
 */

/** The first line's `format`: a reader refuses a file of another format. */
export const RECORDS_FORMAT = 'hotspot-access-records/1';

/** What the first day of a venue's chain names as its previous file's hash. */
export const GENESIS_SHA256 = '0'.repeat(64);

/**
 * A day is sealed only this long after it ended in the venue's time zone, so that the sessions
 * ended just before midnight have been captured (the usage fold runs every few seconds, the sweep of
 * sessions ended by the service every RECORDS_SWEEP_INTERVAL).
 */
export const SEAL_DELAY_MS = 10 * 60_000;

/** The user a session belongs to, as the capture reads it. */
export interface RecordedUser {
  loginMethod: string;
  username: string | null;
  phone: string | null;
  macAddress: string | null;
}

/** A social identity of the user at the session's venue (guest_identities, kind `social`). */
export interface SocialIdentity {
  issuer: string;
  subject: string;
}

/** A guest identity the portal keeps (guest_identities) of a user at a venue. */
export interface GuestIdentity {
  userId: string;
  venueId: string;
  kind: string;
  issuer: string;
  subject: string;
}

/**
 * The user's identity of `kind` at the venue, of `identities` listed most recently used first (the
 * one the guest signed in with for a session just begun); null when it has none.
 */
export function guestIdentityOf(
  identities: readonly GuestIdentity[],
  userId: string,
  venueId: string,
  kind: 'phone' | 'social',
): GuestIdentity | null {
  return (
    identities.find(
      (identity) => identity.userId === userId && identity.venueId === venueId && identity.kind === kind,
    ) ?? null
  );
}

/** Who a record names. */
export interface RecordIdentity {
  kind: IdentityKind;
  /** The OpenID issuer for `social`, else ''. */
  issuer: string;
  identity: string;
}

/**
 * The identity a regulator asks for, by login method: the verified phone of an `sms` user (its
 * guest identity, else the user's phone), the issuer and subject of a `social` user, the username
 * of a `username_password` user, the MAC of a `guest` (the user's, else the session's). A user
 * lacking what its method calls for is named by its username, else by the session's MAC.
 */
export function identityOf(
  user: RecordedUser,
  sessionMac: string,
  verifiedPhone: string | null,
  social: SocialIdentity | null,
): RecordIdentity {
  const phone = verifiedPhone ?? user.phone;
  if (user.loginMethod === 'sms' && phone !== null) return { kind: 'phone', issuer: '', identity: phone };
  if (user.loginMethod === 'social' && social !== null)
    return { kind: 'social', issuer: social.issuer, identity: social.subject };
  if (user.loginMethod === 'guest') return { kind: 'mac', issuer: '', identity: user.macAddress ?? sessionMac };
  if (user.username !== null) return { kind: 'username', issuer: '', identity: user.username };
  return { kind: 'mac', issuer: '', identity: user.macAddress ?? sessionMac };
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A venue's zone as its days are counted in: its IANA time zone, else UTC. */
export function zoneOf(timeZone: string | null): string {
  return timeZone !== null && isTimeZone(timeZone) ? timeZone : 'UTC';
}

/** The day (YYYY-MM-DD) `instant` falls on in `zone`. */
export function dayOf(instant: Date, zone: string): string {
  let format = dayFormats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(zone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day after `day`. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The day before `day`. */
export function previousDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10);
}

/** Whether `raw` is a real date written YYYY-MM-DD. */
export function isDay(raw: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(raw) && dayStart(raw, 'UTC') !== null;
}

/** The instants `day` begins and ends (the next day's start) in `zone`. */
export function dayBounds(day: string, zone: string): { from: Date; to: Date } {
  return { from: dayStart(day, zone)!, to: dayEnd(day, zone)! };
}

/** The last day of `zone` that may be sealed at `now`: its end lies SEAL_DELAY_MS in the past. */
export function lastSealableDay(now: Date, zone: string): string {
  return previousDay(dayOf(new Date(now.getTime() - SEAL_DELAY_MS), zone));
}

/** A record as a day's file lists it. */
export interface RecordLine {
  sessionId: string;
  startedAt: Date;
  endedAt: Date | null;
  nasId: string | null;
  ipAddress: string | null;
  macAddress: string;
  userId: string;
  loginMethod: string;
  identityKind: IdentityKind;
  identityIssuer: string;
  identity: string;
}

/** What the first line of a day's file says. */
export interface DayHeader {
  venue: string;
  day: string;
  timeZone: string;
  from: Date;
  to: Date;
  records: number;
  /** The venue's day sealed before (null: this file starts the chain). */
  previousDay: string | null;
  /** SHA-256 of that day's file, hexadecimal (GENESIS_SHA256 when it starts the chain). */
  previousSha256: string;
  sealedAt: Date;
}

/**
 * A record as one line of JSON, keys in a fixed order. `to` is null when the session had not ended
 * when the day was sealed; one that ended after the day shows its end all the same.
 */
export function recordLine(record: RecordLine): string {
  return JSON.stringify({
    session: record.sessionId,
    from: record.startedAt.toISOString(),
    to: record.endedAt === null ? null : record.endedAt.toISOString(),
    nas: record.nasId,
    ip: record.ipAddress,
    mac: record.macAddress,
    userId: record.userId,
    loginMethod: record.loginMethod,
    identityKind: record.identityKind,
    issuer: record.identityIssuer,
    identity: record.identity,
  });
}

/** The first line of a day's file, keys in a fixed order. */
export function headerLine(header: DayHeader): string {
  return JSON.stringify({
    format: RECORDS_FORMAT,
    venue: header.venue,
    day: header.day,
    timeZone: header.timeZone,
    from: header.from.toISOString(),
    to: header.to.toISOString(),
    records: header.records,
    previousDay: header.previousDay,
    previousSha256: header.previousSha256,
    sealedAt: header.sealedAt.toISOString(),
  });
}

/** The records of a day in the file's order: by start, then session id. */
export function inFileOrder<T extends Pick<RecordLine, 'startedAt' | 'sessionId'>>(records: readonly T[]): T[] {
  return [...records].sort(
    (a, b) =>
      a.startedAt.getTime() - b.startedAt.getTime() ||
      (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0),
  );
}

/** A day's file: its lines, each ended by a newline, in UTF-8. */
export function fileBytes(lines: readonly string[]): Buffer {
  return Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
}

/** The Ed25519 signature of `bytes` (64 bytes): what `openssl pkeyutl -verify -rawin` checks. */
export function signBytes(bytes: Buffer, privateKey: KeyObject): Buffer {
  return sign(null, bytes, privateKey);
}

export function signatureHolds(bytes: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  try {
    return verify(null, bytes, publicKey, signature);
  } catch {
    return false;
  }
}

/** A day's file's name in an export folder; its signature is the same name with `.sig` added. */
export function fileNameOf(venue: string, day: string): string {
  return `${venue}.${day}.jsonl`;
}

/** A file of an export folder as verify reads it. */
export interface FolderFile {
  name: string;
  bytes: Buffer;
  /** The `.sig` beside it; null when missing. */
  signature: Buffer | null;
}

/** What verify found about one file. */
export interface FileCheck {
  name: string;
  venue: string | null;
  day: string | null;
  records: number | null;
  sha256: string;
  problems: string[];
}

export interface FolderCheck {
  files: FileCheck[];
  /** Problems between files: days missing or changed in a venue's chain. */
  chain: string[];
  ok: boolean;
}

interface ReadHeader {
  venue: string;
  day: string;
  records: number;
  previousDay: string | null;
  previousSha256: string;
}

/** The header of a file's first line, or the problem with it. */
function readHeader(lines: readonly string[]): ReadHeader | string {
  let value: unknown;
  try {
    value = JSON.parse(lines[0] ?? '');
  } catch {
    return 'the first line is not JSON';
  }
  const header = value as Record<string, unknown> | null;
  if (header === null || typeof header !== 'object' || header.format !== RECORDS_FORMAT)
    return `the first line does not say format ${RECORDS_FORMAT}`;
  const { venue, day, records, previousDay: previous, previousSha256 } = header;
  if (
    typeof venue !== 'string' ||
    typeof day !== 'string' ||
    !isDay(day) ||
    typeof records !== 'number' ||
    (previous !== null && (typeof previous !== 'string' || !isDay(previous))) ||
    typeof previousSha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(previousSha256)
  )
    return 'the first line lacks venue, day, records, previousDay or previousSha256';
  return { venue, day, records, previousDay: previous, previousSha256 };
}

/** The checks of one file alone: its signature, its header, its lines. */
function checkFile(file: FolderFile, publicKey: KeyObject): FileCheck & { header: ReadHeader | null } {
  const sha256 = sha256Hex(file.bytes);
  const problems: string[] = [];
  if (file.signature === null) problems.push(`${file.name}.sig is missing`);
  else if (!signatureHolds(file.bytes, file.signature, publicKey))
    problems.push('the signature does not match the file (changed, or signed by another key)');
  const text = file.bytes.toString('utf8');
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : [text];
  if (!text.endsWith('\n')) problems.push('the file does not end with a newline');
  const header = readHeader(lines);
  if (typeof header === 'string') {
    problems.push(header);
    return { name: file.name, venue: null, day: null, records: null, sha256, problems, header: null };
  }
  if (header.records !== lines.length - 1)
    problems.push(`the first line says ${header.records} record(s), the file has ${lines.length - 1}`);
  lines.slice(1).forEach((line, index) => {
    try {
      JSON.parse(line);
    } catch {
      problems.push(`line ${index + 2} is not JSON`);
    }
  });
  return { name: file.name, venue: header.venue, day: header.day, records: header.records, sha256, problems, header };
}

/**
 * Verifies an export folder: each file's signature over its exact bytes, its header and lines, and
 * each venue's chain across the folder's days: every file after a venue's first in the folder must
 * name the venue's file of the day before as its previous day, with that file's SHA-256. A day
 * missing between two files, or a file changed after the next day was sealed, breaks it.
 */
export function verifyFolder(files: readonly FolderFile[], publicKey: KeyObject): FolderCheck {
  const checked = files.map((file) => checkFile(file, publicKey));
  const chain: string[] = [];
  const byVenue = new Map<string, typeof checked>();
  for (const file of checked) {
    if (file.header === null) continue;
    byVenue.set(file.header.venue, [...(byVenue.get(file.header.venue) ?? []), file]);
  }
  for (const [venue, venueFiles] of byVenue) {
    const sorted = [...venueFiles].sort((a, b) => (a.day! < b.day! ? -1 : a.day! > b.day! ? 1 : 0));
    for (let index = 1; index < sorted.length; index += 1) {
      const before = sorted[index - 1];
      const file = sorted[index];
      if (before.day === file.day) {
        chain.push(`${venue}: two files for ${file.day} (${before.name}, ${file.name})`);
      } else if (file.header!.previousDay !== before.day) {
        const missing = file.header!.previousDay ?? 'none';
        chain.push(
          `${venue}: ${file.day} follows ${missing}, whose file is missing (the folder goes from ${before.day})`,
        );
      } else if (file.header!.previousSha256 !== before.sha256) {
        chain.push(`${venue}: ${before.day} is not the file ${file.day} names (SHA-256 differs): changed or replaced`);
      }
    }
  }
  const reported = checked.map(({ header: _header, ...file }) => file);
  return {
    files: reported,
    chain,
    ok: chain.length === 0 && reported.every((file) => file.problems.length === 0),
  };
}
