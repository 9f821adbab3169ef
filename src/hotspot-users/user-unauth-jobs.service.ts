import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { pageWindow, paginationOf } from '../common/pagination.js';
import { DatabaseService } from '../database/database.service.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import type { PaginationDto } from './dto/hotspot-user.response.js';
import type { UnauthJobDto } from './dto/unauth-job.response.js';
import type { UserPageQuery } from './hotspot-user.inputs.js';
import { venuesOfJob } from './hotspot-user.rules.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
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
  ) {}

  /**
   * One job: 404 when there is none or the token may not read it (no venue in common with the
   * user's, or with the job's sessions' once the user is deleted): its existence is not revealed.
   */
  get(token: Actor, id: string): Promise<UnauthJobDto> {
    return this.database.run(async (em) => {
      const job = await this.jobs.findIn(em, id);
      if (job === null) throw ApiError.unauthJobNotFound();
      const user = await this.users.findRecord(em, job.userId);
      if (!this.venueScope.canRead(token, venuesOfJob(user?.venueIds ?? null, job.sessions))) {
        throw ApiError.unauthJobNotFound();
      }
      return toUnauthJobDto(job);
    });
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
      return { data: jobs.map(toUnauthJobDto), pagination: paginationOf(query, total) };
    });
  }
}
