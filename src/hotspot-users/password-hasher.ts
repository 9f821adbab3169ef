import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum: 19 MiB, 2 iterations, parallelism 1. Runs on libuv's thread pool. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

@Injectable()
export class PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }
}

/** Whether `password` matches `passwordHash` (on libuv's thread pool); false, never an error, for a hash it cannot read. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
