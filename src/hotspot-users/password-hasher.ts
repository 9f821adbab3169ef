import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

/** argon2id with OWASP's minimum: 19 MiB, 2 iterations, parallelism 1. Runs on libuv's thread pool. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Hashes and verifications under way at once in this process: one per core. Each holds 19 MiB and a
 * core for about 20 ms, so more at once (libuv's pool runs 4) would add memory and take cores from
 * the event loop without adding throughput; the others wait their turn here, off the event loop.
 */
export const ARGON2_CONCURRENCY = Math.max(1, availableParallelism());
export const argon2Slots = pLimit(ARGON2_CONCURRENCY);

@Injectable()
export class PasswordHasher {
  hash(password: string): Promise<string> {
    return argon2Slots(() => hash(password, OPTIONS));
  }
}

/** Whether `password` matches `passwordHash` (on libuv's thread pool); false, never an error, for a hash it cannot read. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Slots(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
