import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import type { UnauthJobEntity, UnauthJobSession, UnauthJobStatus, UnauthReason } from './entities/unauth-job.entity.js';
import { errorOf, exhausted, type Deliveries, type JobVerdict } from './delivery.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import {
  claimOf,
  deliveredChanges,
  failedChanges,
  nasClientIdsOf,
  newPendingJob,
  releasedChanges,
  retriedChanges,
  sessionsTakingCoa,
  type ClaimedJob,
  type RetryPolicy,
  type UnauthJobRequest,
} from './unauth-job-rules.js';
import { UnauthJobsRepository } from './unauth-jobs.repository.js';
import { notSentOf } from './job-report.js';
import { NAS_DIRECTORY, type NasDirectory } from './dispatchers/radius/nas-directory.js';

@Injectable()
export class UnauthJobsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly jobs: UnauthJobsRepository,
    private readonly sessions: SessionsRepository,
    @Optional() @Inject(NAS_DIRECTORY) private readonly nases: NasDirectory | null = null,
  ) {}

  /**
   * Writes a pending job through the caller's transaction (an outbox row): it commits or rolls back
   * with the change that caused it. `id` is a fixed one where copies of one request may race (a
   * NAS's retransmissions): the second copy's insert then fails on the primary key.
   */
  async enqueue(em: EntityManager, request: UnauthJobRequest, now: Date, id = newId()): Promise<UnauthJobEntity> {
    const job = newPendingJob(id, request, now);
    await this.jobs.insert(em, job);
    // The sessions it asks NASes to end wait for their confirmation (the console's Online now shows them).
    if (request.reason !== 'coa') {
      const reported = request.sessions.filter((session) => session.nasClientId !== null);
      await this.sessions.markDisconnecting(
        em,
        reported.map((session) => session.id),
        job.id,
      );
    }
    return job;
  }

  /**
   * Writes a `coa` job, like enqueue, for the sessions whose NAS takes CoA-Requests; none (null) when
   * no such session is left. A NAS marked as refusing CoA ends its sessions at expiresAt through the
   * expiry sweep instead.
   */
  async enqueueCoa(em: EntityManager, request: UnauthJobRequest, now: Date): Promise<UnauthJobEntity | null> {
    const refusing =
      this.nases === null ? new Set<string>() : await this.nases.refusingCoa(em, nasClientIdsOf(request.sessions));
    const sessions = sessionsTakingCoa(request.sessions, refusing);
    if (sessions.length === 0) return null;
    return this.enqueue(em, { ...request, sessions }, now);
  }

  /**
   * The statuses of the user's jobs (of `reason`, when given) that list the session, oldest first:
   * whether the network side was told of it already, and how that went.
   */
  async jobStatusesForSession(
    em: EntityManager,
    userId: string,
    sessionId: string,
    reason?: UnauthReason,
  ): Promise<UnauthJobStatus[]> {
    const jobs = await this.jobs.list(em, { userId, reason });
    return jobs.filter((job) => lists(job, (session) => session.id === sessionId)).map((job) => job.status);
  }

  /**
   * Claims up to `limit` due jobs for one worker: pending ones whose time has come, and processing
   * ones whose lease ran out (their worker died). Each becomes processing with a lease. Concurrent
   * workers take different jobs: on MySQL the due rows are locked (skipping rows another worker
   * locked), on SQLite the transaction holds the file's write lock, and each claim is a conditional
   * update that fails when the row changed since it was read.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    return this.database.transaction(async (em) => {
      const claimed: ClaimedJob[] = [];
      for (const job of await this.jobs.findDue(em, now, limit)) {
        const claim = claimOf(job, now, leaseMs);
        if (await this.jobs.claim(em, job, claim, now)) claimed.push(claim);
      }
      return claimed;
    });
  }

  /**
   * Stores the deliveries of an attempt and what they make of the job: done, failed, or retried with
   * backoff (failed after the last attempt, its pending deliveries with it).
   */
  async recordAttempt(
    job: ClaimedJob,
    deliveries: Deliveries,
    verdict: JobVerdict,
    now: Date,
    retry: RetryPolicy,
  ): Promise<UnauthJobStatus> {
    if (verdict === 'done') {
      const notSent = notSentOf({ sessions: job.sessions, status: 'done', deliveries });
      await this.whileLeased(job, deliveredChanges(deliveries, notSent, now));
      return 'done';
    }
    const error = errorOf(deliveries) ?? 'delivery failed';
    const changes =
      verdict === 'failed'
        ? { ...failedChanges({ attempts: retry.maxAttempts }, error, now, retry), deliveries }
        : failedChanges(job, error, now, retry);
    const status = changes.status as UnauthJobStatus;
    await this.whileLeased(job, { ...changes, deliveries: status === 'failed' ? exhausted(deliveries) : deliveries });
    return status;
  }

  /**
   * A NAS confirmed the session is over (Disconnect-ACK, or NAK 503: it had no such session): it is
   * ended here too, without waiting for accounting, and keeps the first terminate cause it got.
   */
  async closeDisconnected(sessionId: string, terminateCause: string, now: Date): Promise<void> {
    await this.database.transaction((em) => this.sessions.endConfirmed(em, sessionId, terminateCause, now));
  }

  /**
   * The NAS reported these sessions of the user stopped: the user's pending jobs that list one are
   * due at once, so the worker settles them now rather than at their next backoff.
   */
  async hurryJobsOfSessions(
    em: EntityManager,
    userId: string,
    sessionIds: readonly string[],
    now: Date,
  ): Promise<void> {
    const pending = await this.jobs.list(em, { userId, status: 'pending' });
    await this.hurryListing(em, pending, (session) => sessionIds.includes(session.id), now);
  }

  /**
   * A NAS restarted (Accounting-On/Off; from `sourceIp` only, when given): the sessions that open
   * jobs still have to disconnect there are over, whatever their state here (none of its sessions waits
   * for a Disconnect to be confirmed any more); their pending jobs are due at once.
   */
  async settleOpenJobSessionsOfNas(
    em: EntityManager,
    nasClientId: string,
    sourceIp: string | null,
    now: Date,
  ): Promise<void> {
    const open = [
      ...(await this.jobs.list(em, { status: 'pending' })),
      ...(await this.jobs.list(em, { status: 'processing' })),
    ];
    const onNas = (session: UnauthJobSession) =>
      session.nasClientId === nasClientId && (sourceIp === null || session.nasSourceIp === sourceIp);
    const ids = open.flatMap((job) => job.sessions.filter(onNas).map((session) => session.id));
    await this.sessions.markStoppedByNas(em, ids, now);
    await this.sessions.clearDisconnectingOfNas(em, nasClientId, sourceIp);
    await this.hurryListing(em, open, onNas, now);
  }

  /** Of `jobs`, the pending ones due later that list a session `matches`: due at `now`. */
  private async hurryListing(
    em: EntityManager,
    jobs: readonly UnauthJobEntity[],
    matches: (session: UnauthJobSession) => boolean,
    now: Date,
  ): Promise<void> {
    for (const job of jobs) {
      if (job.status === 'pending' && job.nextAttemptAt > now && lists(job, matches))
        await this.jobs.hurry(em, job.id, now);
    }
  }

  /** Of `sessionIds`, those the NAS said are over: a Disconnect owed for them is settled without being sent. */
  stoppedByNas(sessionIds: readonly string[]): Promise<string[]> {
    return this.database.run((em) => this.sessions.findStoppedByNas(em, sessionIds));
  }

  /** Hands a claimed job back untried (shutdown): due at once, and the attempt does not count. */
  async release(job: ClaimedJob, now: Date, deliveries?: Deliveries): Promise<void> {
    await this.whileLeased(job, { ...releasedChanges(job, now), ...(deliveries === undefined ? {} : { deliveries }) });
  }

  list(filter: { userId?: string; status?: UnauthJobStatus } = {}): Promise<UnauthJobEntity[]> {
    return this.database.run((em) => this.jobs.list(em, filter));
  }

  find(id: string): Promise<UnauthJobEntity | null> {
    return this.database.run((em) => this.jobs.findById(em, id));
  }

  /** The job, read in the caller's unit of work; null when there is none. */
  findIn(em: EntityManager, id: string): Promise<UnauthJobEntity | null> {
    return this.jobs.findById(em, id);
  }

  /** The job with its row locked for the caller's transaction; null when there is none. */
  lockIn(em: EntityManager, id: string): Promise<UnauthJobEntity | null> {
    return this.jobs.lockById(em, id);
  }

  /**
   * Puts a failed job back for the worker (retriedChanges), in the caller's transaction; false when
   * it is not failed (any more).
   */
  reopenFailed(em: EntityManager, job: UnauthJobEntity, now: Date): Promise<boolean> {
    if (job.status !== 'failed') return Promise.resolve(false);
    return this.jobs.updateInStatus(em, job.id, 'failed', retriedChanges(job, now));
  }

  /** One page of the user's jobs, newest first, in the caller's unit of work. */
  pageOfUser(
    em: EntityManager,
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; jobs: UnauthJobEntity[] }> {
    return this.jobs.findPageOfUser(em, userId, page);
  }

  private whileLeased(job: ClaimedJob, changes: Partial<UnauthJobEntity>): Promise<void> {
    return this.database.run((em) => this.jobs.updateWhileLeased(em, job, changes));
  }
}

/** Whether the job lists a session that `matches`. */
function lists(job: UnauthJobEntity, matches: (session: UnauthJobSession) => boolean): boolean {
  return job.sessions.some(matches);
}
