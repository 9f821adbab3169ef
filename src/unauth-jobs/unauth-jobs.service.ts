import { Injectable } from '@nestjs/common';
import type { EntityManager, FindOptionsWhere } from 'typeorm';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import { retryDelayMs } from './retry-delay.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import {
  UnauthJobEntity,
  type UnauthJobSession,
  type UnauthJobStatus,
  type UnauthReason,
} from './entities/unauth-job.entity.js';

/** A job this worker holds: processing, with the lease it was claimed under. */
export type ClaimedJob = UnauthJobEntity & { status: 'processing'; leaseExpiresAt: Date };

const MAX_ERROR_LENGTH = 1000;

export interface UnauthJobRequest {
  userId: string;
  username: string | null;
  reason: UnauthReason;
  sessions: readonly SessionEntity[];
}

@Injectable()
export class UnauthJobsService {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Writes a pending job through the caller's transaction (an outbox row): it commits or rolls back
   * with the change that caused it.
   */
  async enqueue(em: EntityManager, request: UnauthJobRequest, now: Date): Promise<UnauthJobEntity> {
    const job = new UnauthJobEntity();
    job.id = newId();
    job.userId = request.userId;
    job.username = request.username;
    job.reason = request.reason;
    job.sessions = request.sessions.map(toJobSession);
    job.status = 'pending';
    job.attempts = 0;
    job.nextAttemptAt = now;
    job.leaseExpiresAt = null;
    job.lastError = null;
    job.createdAt = now;
    job.updatedAt = now;
    await em.insert(UnauthJobEntity, job);
    return job;
  }

  /**
   * Whether a job of `reason` for `userId` already names the session `sessionId`: a session that
   * cannot be stored (its user is gone) is told to the network side once, not on every retransmission.
   */
  async hasJobForSession(em: EntityManager, userId: string, reason: UnauthReason, sessionId: string): Promise<boolean> {
    const jobs = await em.findBy(UnauthJobEntity, { userId, reason });
    return jobs.some((job) => job.sessions.some((session) => session.id === sessionId));
  }

  /**
   * Claims up to `limit` due jobs for one worker: pending ones whose time has come, and processing
   * ones whose lease ran out (their worker died). Each becomes processing with a lease; its
   * next_attempt_at moves to the lease's end, so one indexed condition finds both kinds. On MySQL
   * the rows are read with FOR UPDATE SKIP LOCKED, so concurrent workers take different jobs; on
   * SQLite the transaction holds the file's write lock, and each claim is a conditional update.
   */
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const leaseExpiresAt = new Date(now.getTime() + leaseMs);
    return this.database.transaction(async (em) => {
      const query = em
        .createQueryBuilder(UnauthJobEntity, 'job')
        .where('job.status IN (:...statuses)', { statuses: ['pending', 'processing'] })
        .andWhere('job.nextAttemptAt <= :now', { now })
        .orderBy('job.nextAttemptAt', 'ASC')
        .addOrderBy('job.id', 'ASC')
        .limit(limit);
      if (this.database.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
      const due = await query.getMany();
      const claimed: ClaimedJob[] = [];
      for (const job of due) {
        const result = await em.update(
          UnauthJobEntity,
          { id: job.id, status: job.status, nextAttemptAt: job.nextAttemptAt },
          { status: 'processing', attempts: job.attempts + 1, leaseExpiresAt, nextAttemptAt: leaseExpiresAt, updatedAt: now },
        );
        if (result.affected === 1) {
          claimed.push({ ...job, status: 'processing', attempts: job.attempts + 1, leaseExpiresAt, nextAttemptAt: leaseExpiresAt });
        }
      }
      return claimed;
    });
  }

  /** The job was delivered. Ignored when the lease was lost to another worker meanwhile. */
  async markDone(job: ClaimedJob, now: Date): Promise<void> {
    await this.whileLeased(job, { status: 'done', leaseExpiresAt: null, lastError: null, updatedAt: now });
  }

  /** Delivery failed: retry later with backoff, or give up after the last attempt. */
  async markFailed(job: ClaimedJob, error: string, now: Date, retry: { maxAttempts: number; retryBaseMs: number }): Promise<void> {
    const lastError = error.slice(0, MAX_ERROR_LENGTH);
    if (job.attempts >= retry.maxAttempts) {
      await this.whileLeased(job, { status: 'failed', leaseExpiresAt: null, lastError, updatedAt: now });
      return;
    }
    const nextAttemptAt = new Date(now.getTime() + retryDelayMs(job.attempts, retry.retryBaseMs));
    await this.whileLeased(job, { status: 'pending', leaseExpiresAt: null, nextAttemptAt, lastError, updatedAt: now });
  }

  /** Hands a claimed job back untried (shutdown): due at once, and the attempt does not count. */
  async release(job: ClaimedJob, now: Date): Promise<void> {
    await this.whileLeased(job, {
      status: 'pending',
      attempts: job.attempts - 1,
      leaseExpiresAt: null,
      nextAttemptAt: now,
      updatedAt: now,
    });
  }

  private async whileLeased(job: ClaimedJob, changes: Partial<UnauthJobEntity>): Promise<void> {
    await this.database.run((em) =>
      em.update(UnauthJobEntity, { id: job.id, status: 'processing', leaseExpiresAt: job.leaseExpiresAt }, changes),
    );
  }

  list(filter: { userId?: string; status?: UnauthJobStatus } = {}): Promise<UnauthJobEntity[]> {
    const where: FindOptionsWhere<UnauthJobEntity> = {};
    if (filter.userId !== undefined) where.userId = filter.userId;
    if (filter.status !== undefined) where.status = filter.status;
    return this.database.run((em) => em.find(UnauthJobEntity, { where, order: { createdAt: 'ASC', id: 'ASC' } }));
  }
}

function toJobSession(session: SessionEntity): UnauthJobSession {
  return {
    id: session.id,
    venueId: session.venueId,
    macAddress: session.macAddress,
    ipAddress: session.ipAddress,
    nasId: session.nasId,
  };
}
