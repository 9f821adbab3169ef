import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { DatabaseService } from '../database/database.service.js';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity.js';
import { expiryCutoff, keyState, toStoredAnswer, type HttpAnswer, type KeyState } from './idempotency.rules.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** A request's Idempotency-Key, scoped to its token, and the fingerprint of the request. */
export interface IdempotencyClaim {
  tokenId: string;
  key: string;
  fingerprint: string;
}

/** A use case run under an Idempotency-Key: the claim, and how its result becomes the answer to keep. */
export interface IdempotentCall<T> {
  claim: IdempotencyClaim;
  answer: (result: T) => HttpAnswer;
}

/**
 * The key was taken by another request between this request's first look and its transaction (on
 * MySQL, its insert waited for that request's transaction to commit). Nothing of this request's
 * work was written; the answer is the other request's.
 */
export class IdempotencyKeyTaken extends Error {
  constructor(cause: unknown) {
    super('Idempotency-Key taken by another request', { cause });
    this.name = 'IdempotencyKeyTaken';
  }
}

/**
 * Keeps Idempotency-Keys in the database, so they hold across instances. A use case takes the key
 * first thing in its transaction (reserve) and writes its answer last (complete): the key, the work
 * and the answer commit together or not at all, so a process that dies mid-way leaves no key behind
 * and the retry does the work. A final error answer, whose transaction rolled back, is kept after
 * it (keepError).
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly keys: IdempotencyRepository,
  ) {}

  /** What the key means for this request now; a key past its 24 hours is deleted and is new. */
  async stateOf(claim: IdempotencyClaim): Promise<KeyState> {
    const now = this.clock.now();
    const stored = await this.database.run((em) => this.keys.find(em, claim.tokenId, claim.key));
    const state = keyState(stored, claim.fingerprint, now);
    if (state.kind !== 'expired') return state;
    await this.database.run((em) => this.keys.deleteIfCreatedBefore(em, claim.tokenId, claim.key, expiryCutoff(now)));
    return { kind: 'new' };
  }

  /** Inside the use case's transaction, before its work: takes the key, or throws IdempotencyKeyTaken. */
  async reserve(em: EntityManager, call: IdempotentCall<never> | null): Promise<void> {
    if (call === null) return;
    try {
      await this.keys.insert(em, this.row(call.claim, null));
    } catch (error) {
      throw isUniqueViolation(error) ? new IdempotencyKeyTaken(error) : error;
    }
  }

  /** Inside the same transaction, after the work: the answer the key replays from now on. */
  async complete<T>(em: EntityManager, call: IdempotentCall<T> | null, result: T): Promise<void> {
    if (call === null) return;
    await this.keys.setAnswer(em, call.claim.tokenId, call.claim.key, toStoredAnswer(call.answer(result)));
  }

  /**
   * Keeps a final error answer whose work wrote nothing. A request that took the key meanwhile keeps
   * its own answer; a failure to store is only logged: the error is answered all the same, and the
   * next retry simply runs again.
   */
  async keepError(claim: IdempotencyClaim, answer: HttpAnswer): Promise<void> {
    try {
      const row = this.row(claim, toStoredAnswer(answer));
      await this.database.run((em) => this.keys.insert(em, row));
    } catch (error) {
      if (isUniqueViolation(error)) return;
      this.logger.warn(
        `Could not keep an Idempotency-Key answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Deletes up to `limit` keys older than 24 hours, oldest first; returns how many. */
  forgetExpired(limit: number): Promise<number> {
    const cutoff = expiryCutoff(this.clock.now());
    return this.database.transaction(async (em) => {
      const expired = await this.keys.findCreatedBefore(em, cutoff, limit);
      return this.keys.deleteKeysCreatedBefore(em, expired, cutoff);
    });
  }

  private row(claim: IdempotencyClaim, answer: IdempotencyKeyEntity['answer']): IdempotencyKeyEntity {
    return Object.assign(new IdempotencyKeyEntity(), {
      tokenId: claim.tokenId,
      key: claim.key,
      fingerprint: claim.fingerprint,
      answer,
      createdAt: this.clock.now(),
    } satisfies IdempotencyKeyEntity);
  }
}
