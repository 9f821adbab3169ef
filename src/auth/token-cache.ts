import type { AuthenticatedToken } from './authenticated-token.js';

interface Entry {
  token: AuthenticatedToken;
  cachedUntil: number;
  /** When last_used_at was last written (or read) for this token, in ms. */
  lastUsedAt: number | null;
}

/** How long a value that matched no usable token (unknown or revoked) is remembered as such, at most. */
export const UNKNOWN_TOKEN_TTL_MS = 5000;

/**
 * Verified tokens by hash, for a short time, so the guard does not query the database on every
 * request; and, for a shorter time, hashes that matched no usable token, so that repeating a wrong
 * or revoked token does not cost a query each time either. Each kind is bounded in size on its own
 * (the oldest entry goes first), so a flood of made-up tokens cannot push out the verified ones.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  /** Hash → until when it is known to match no usable token, in ms. */
  private readonly unknown = new Map<string, number>();
  private readonly unknownTtlMs: number;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    this.unknownTtlMs = Math.min(ttlMs, UNKNOWN_TOKEN_TTL_MS);
  }

  /** False when the time to live is 0: nothing is ever stored. */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(hash: string, nowMs: number): Entry | undefined {
    const entry = this.entries.get(hash);
    if (entry === undefined) return undefined;
    if (entry.cachedUntil <= nowMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, token: AuthenticatedToken, lastUsedAt: number | null, nowMs: number): Entry {
    if (this.ttlMs <= 0) return { token, cachedUntil: nowMs, lastUsedAt };
    const entry = { token, cachedUntil: nowMs + this.ttlMs, lastUsedAt };
    this.unknown.delete(hash);
    insertBounded(this.entries, hash, entry, this.maxEntries);
    return entry;
  }

  isUnknown(hash: string, nowMs: number): boolean {
    const until = this.unknown.get(hash);
    if (until === undefined) return false;
    if (until <= nowMs) {
      this.unknown.delete(hash);
      return false;
    }
    return true;
  }

  setUnknown(hash: string, nowMs: number): void {
    if (this.unknownTtlMs <= 0) return;
    this.entries.delete(hash);
    insertBounded(this.unknown, hash, nowMs + this.unknownTtlMs, this.maxEntries);
  }

  /** Whether anything is cached about `hash`, verified or unknown. */
  holds(hash: string, nowMs: number): boolean {
    return this.get(hash, nowMs) !== undefined || this.isUnknown(hash, nowMs);
  }

  delete(hash: string): void {
    this.entries.delete(hash);
    this.unknown.delete(hash);
  }

  clear(): void {
    this.entries.clear();
    this.unknown.clear();
  }
}

/** Sets `key` as the newest entry of `map`, dropping the oldest when it is full. */
function insertBounded<V>(map: Map<string, V>, key: string, value: V, maxEntries: number): void {
  map.delete(key);
  if (map.size >= maxEntries) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
}
