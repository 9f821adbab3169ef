import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

interface Entry {
  mac: Buffer;
  /** Until when the entry vouches for the password, in ms. */
  until: number;
}

/**
 * Passwords recently verified against a user's stored argon2id hash, so that a repeated correct
 * login does not pay argon2id again (as Elasticsearch's realms cache verified credentials). Only
 * successes are stored: a wrong password always costs a full verification. An entry holds an
 * HMAC-SHA256, under a key drawn at start-up and never stored, of the stored hash and the password,
 * never the password; since the stored hash is part of it, a password change invalidates it by
 * itself. Bounded: past `maxEntries` users, the least recently used goes first.
 */
export class VerifiedPasswords {
  private readonly key = randomBytes(32);
  /** By user id, least recently used first (a Map iterates in insertion order). */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Whether `password` was verified against `passwordHash` for `userId` less than the time to live ago. */
  has(userId: string, passwordHash: string, password: string, nowMs: number): boolean {
    const entry = this.entries.get(userId);
    if (entry === undefined) return false;
    if (entry.until <= nowMs) {
      this.entries.delete(userId);
      return false;
    }
    if (!timingSafeEqual(entry.mac, this.mac(passwordHash, password))) return false;
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return true;
  }

  /** Remembers that `password` matched `passwordHash` for `userId` (replacing what was remembered for it). */
  add(userId: string, passwordHash: string, password: string, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(userId);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(userId, { mac: this.mac(passwordHash, password), until: nowMs + this.ttlMs });
  }

  private mac(passwordHash: string, password: string): Buffer {
    return createHmac('sha256', this.key).update(passwordHash).update('\u0000').update(password).digest();
  }
}
