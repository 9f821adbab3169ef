import { createHash } from 'node:crypto';

/**
 * Idempotency-Key rules, Stripe's semantics: the first request with a key does the work and its
 * final answer is kept for RETENTION_MS; the same key with the same request replays that answer,
 * with another request it is refused.
 */

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const RETENTION_MS = 24 * 3600 * 1000;

export const IDEMPOTENCY_MESSAGES = {
  mismatch: 'Idempotency-Key reused with a different request',
  inProgress: 'A request with this Idempotency-Key is in progress',
} as const;

/** An answer as the route sends it; headers are the ones a replay repeats (Location, ETag). */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer as stored: the body as the JSON text that was sent, so a replay is the same bytes. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The parts of a request that must be the same for a key to be replayed. */
export interface RequestShape {
  method: string;
  /** The path as requested, without the query. */
  path: string;
  /** The parsed query parameters. */
  query: unknown;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

/** What a key means for a new request with it. */
export type KeyState =
  | { kind: 'new' }
  | { kind: 'expired' }
  | { kind: 'mismatch' }
  | { kind: 'in-progress' }
  | { kind: 'replay'; answer: StoredAnswer };

export interface StoredKey {
  fingerprint: string;
  answer: StoredAnswer | null;
  createdAt: Date;
}

/** Why a header value cannot be an Idempotency-Key, or null when it can: 1–255 printable ASCII characters. */
export function keyProblem(value: string | string[]): string | null {
  if (Array.isArray(value)) return `${IDEMPOTENCY_KEY_HEADER} must be sent once`;
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
  }
  if (!/^[\x20-\x7e]+$/.test(value)) return `${IDEMPOTENCY_KEY_HEADER} must be printable ASCII characters`;
  return null;
}

/** JSON with object keys sorted at every level, so two spellings of one body compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Hex SHA-256 of the canonical request: method, path, query and body. */
export function requestFingerprint(request: RequestShape): string {
  const canonical = canonicalJson({
    method: request.method.toUpperCase(),
    path: request.path,
    query: request.query ?? {},
    body: request.body ?? null,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * Answers worth keeping: successes and the client errors that a repeat would get again. 5xx (a 503
 * above all), 408, 425 and 429 say "try again", so the key stays free for that retry.
 */
export function isFinalStatus(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && ![408, 425, 429].includes(status);
}

/** Older than 24 hours: created before expiryCutoff(now). */
export function isExpired(createdAt: Date, now: Date): boolean {
  return createdAt.getTime() < expiryCutoff(now).getTime();
}

/** Keys created before this instant are forgotten. */
export function expiryCutoff(now: Date): Date {
  return new Date(now.getTime() - RETENTION_MS);
}

export function keyState(stored: StoredKey | null, fingerprint: string, now: Date): KeyState {
  if (stored === null) return { kind: 'new' };
  if (isExpired(stored.createdAt, now)) return { kind: 'expired' };
  if (stored.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (stored.answer === null) return { kind: 'in-progress' };
  return { kind: 'replay', answer: stored.answer };
}

export function toStoredAnswer(answer: HttpAnswer): StoredAnswer {
  return { status: answer.status, headers: { ...answer.headers }, body: JSON.stringify(answer.body) };
}
