import type { AuthenticatedToken } from './authenticated-token.js';

interface Entry {
  token: AuthenticatedToken;
  cachedUntil: number;
  /** When last_used_at was last written (or read) for this token, in ms. */
  lastUsedAt: number | null;
}

/**
 * Verified tokens by hash, for a short time, so the guard does not query the database on every
 * request. Bounded in size; the oldest entry goes first.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

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
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const entry = { token, cachedUntil: nowMs + this.ttlMs, lastUsedAt };
    this.entries.set(hash, entry);
    return entry;
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
