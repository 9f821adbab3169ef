import { Injectable } from '@nestjs/common';
import { hash } from '@node-rs/argon2';

/** argon2id with OWASP's minimum: 19 MiB, 2 iterations, parallelism 1. Runs on libuv's thread pool. */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

@Injectable()
export class PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }
}
