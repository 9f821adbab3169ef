import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { actorOf, type AuditOrigin } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { Clock } from '../common/clock.js';
import { pageWindow, paginationOf, type PageRequest } from '../common/pagination.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import type { UnauthJobEntity, UnauthJobStatus, UnauthReason } from '../unauth-jobs/entities/unauth-job.entity.js';
import { jobSeenFrom } from '../unauth-jobs/unauth-job-rules.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import type { PaginationDto } from './dto/hotspot-user.response.js';
import type { UnauthJobDto } from './dto/unauth-job.response.js';
import type { UserPageQuery } from './hotspot-user.inputs.js';
import { venuesOfJob } from './hotspot-user.rules.js';
import { HotspotUsersRepository, type GuestName } from './hotspot-users.repository.js';
import { VenueJobsRepository } from './venue-jobs.repository.js';
import { toUnauthJobDto } from './unauth-job.mapper.js';
import { UserAccess } from './user-access.js';

/**
 * Reading unauth jobs through the API, under the venue rules of reading their user: an integrator
 * follows what a change asked of the network side.
 */
@Injectable()
export class UserUnauthJobsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly venueScope: VenueScopeService,
    private readonly users: HotspotUsersRepository,
    private readonly access: UserAccess,
    private readonly jobs: UnauthJobsService,
    private readonly views: VenueJobsRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /**
   * One job: 404 when there is none or the token may not read it (no venue in common with the
   * user's, or with the job's sessions' once the user is deleted): its existence is not revealed.
   */
  get(token: Actor, id: string): Promise<UnauthJobDto> {
    return this.database.run(async (em) => toUnauthJobDto(await this.readable(em, token, id)));
  }

  /** The stored job itself, under get's rules (the console shows its deliveries' times). */
  find(token: Actor, id: string): Promise<UnauthJobEntity> {
    return this.database.run((em) => this.readable(em, token, id));
  }

  /**
   * One page of the jobs the actor may read (get's venue rules), newest first, of one status and
   * reason when given (`not-sent`: the done jobs that left sessions unsent; `done`: the others).
   */
  async pageInScope(
    token: Actor,
    filter: { status?: UnauthJobStatus | 'not-sent'; reason?: UnauthReason },
    page: PageRequest,
  ): Promise<{ jobs: UnauthJobEntity[]; pagination: PaginationDto }> {
    const { total, jobs } = await this.database.run((em) =>
      this.views.findJobPage(em, { ...filter, venueIds: token.venueIds }, pageWindow(page)),
    );
    return { jobs: jobs.map((job) => jobSeenFrom(job, token.venueIds)), pagination: paginationOf(page, total) };
  }

  /**
   * The name and username of the users of jobs the caller read (pageInScope, find), by id; a user
   * deleted since has none. Names only: the jobs' venue rules were applied when they were read.
   */
  guestNames(userIds: readonly string[]): Promise<Map<string, GuestName>> {
    return this.database.run((em) => this.users.findGuestNames(em, userIds));
  }

  /**
   * Puts a failed job back for the worker (pending, due now, attempts from zero), in one transaction
   * with its unauth-job.retry event: 404 as get, 403 when one of its sessions lies in a venue outside
   * the actor's, 409 when the job is not failed. A caller's `claim` (the console's form token) is
   * taken first and settled last, in the same transaction.
   */
  retry(token: Actor, id: string, origin: AuditOrigin, claim: TransactionClaim<void> | null = null): Promise<void> {
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const job = await this.jobs.lockIn(em, id);
      if (job === null) throw ApiError.unauthJobNotFound();
      const user = await this.users.findRecord(em, job.userId);
      const venueIds = venuesOfJob(user?.venueIds ?? null, job.sessions);
      if (!this.venueScope.canRead(token, venueIds)) throw ApiError.unauthJobNotFound();
      this.venueScope.assertVenuesInScope(token, [...new Set(job.sessions.map((s) => s.venueId))], 'id');
      if (!(await this.jobs.reopenFailed(em, job, this.clock.now()))) {
        throw ApiError.conflict([{ field: 'status', message: `the job is ${job.status}, not failed` }]);
      }
      await this.audit.record(em, {
        actor: actorOf(token),
        action: 'unauth-job.retry',
        target: { type: 'unauth-job', id: job.id },
        venueIds,
        origin,
      });
      await claim?.settle(em, undefined);
    });
  }

  private async readable(em: EntityManager, token: Actor, id: string): Promise<UnauthJobEntity> {
    const job = await this.jobs.findIn(em, id);
    if (job === null) throw ApiError.unauthJobNotFound();
    const user = await this.users.findRecord(em, job.userId);
    if (!this.venueScope.canRead(token, venuesOfJob(user?.venueIds ?? null, job.sessions))) {
      throw ApiError.unauthJobNotFound();
    }
    return jobSeenFrom(job, token.venueIds);
  }

  /** A page of the user's jobs, newest first, under the same venue rules as getting the user. */
  async pageOfUser(
    token: Actor,
    userId: string,
    query: UserPageQuery,
  ): Promise<{ data: UnauthJobDto[]; pagination: PaginationDto }> {
    this.access.assertContextInScope(token, query);
    return this.database.run(async (em) => {
      await this.access.findReadable(em, token, userId, query);
      const { total, jobs } = await this.jobs.pageOfUser(em, userId, pageWindow(query));
      return {
        data: jobs.map((job) => toUnauthJobDto(jobSeenFrom(job, token.venueIds))),
        pagination: paginationOf(query, total),
      };
    });
  }
}
