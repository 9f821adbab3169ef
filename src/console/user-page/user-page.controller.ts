import { Get, Param, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { Clock } from '../../common/clock.js';
import type { AppConfig } from '../../config/configuration.js';
import { HotspotUsersService } from '../../hotspot-users/hotspot-users.service.js';
import { UserUnauthJobsService } from '../../hotspot-users/user-unauth-jobs.service.js';
import { LoginAttemptsService } from '../../radius/login-attempts.service.js';
import { isStale } from '../../sessions/session-staleness.rules.js';
import { ConsolePages, operatorActor, session } from '../console-page.js';
import { queryValue } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { jobViewOfDto, type JobView } from '../network/network-view.js';
import { pathId, queryString } from '../network/network-request.js';
import { attemptReasonKey, inVenues } from '../network/network.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';
import { UsageService } from '../../usage/usage.service.js';
import { usageBars } from '../network/usage-view.js';

/** How many of a user's sessions, login attempts and jobs the page lists (the newest). */
const SESSIONS_SHOWN = 50;
const ATTEMPTS_SHOWN = 20;
const JOBS_SHOWN = 20;

/**
 * A user's page: the user's fields and devices, its plan and usage (UsageService: a bar per counter
 * the plan limits), sessions, recent login attempts and the unauth jobs
 * about the user, with the v1 GET's venue rules (404 for a user outside the operator's venues); of
 * a user in several venues, only what belongs to the operator's venues is listed.
 */
@ConsoleScreen()
export class UserPageController {
  private readonly staleAfterMs: number;

  constructor(
    private readonly pages: ConsolePages,
    private readonly users: HotspotUsersService,
    private readonly jobs: UserUnauthJobsService,
    private readonly attempts: LoginAttemptsService,
    private readonly clock: Clock,
    private readonly usage: UsageService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.staleAfterMs = config.get('radius', { infer: true }).staleAfterMs;
  }

  @Get('users/:id')
  async page(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: unknown): Promise<void> {
    const actor = operatorActor(session(request).operator);
    const userId = pathId(id);
    const venueId = queryValue(request, 'venueId') || undefined;
    const { data: user } = await this.users.get(actor, userId, { venueId });
    const now = this.clock.now();
    const sessions = (
      await this.users.sessionsOf(actor, userId, { venueId, page: 1, limit: SESSIONS_SHOWN, ended: null })
    ).data
      .filter((entry) => inVenues(actor.venueIds, entry.venueId))
      .map((entry) => ({
        ...entry,
        stale: isStale(
          { status: entry.status, lastAccountingAt: entry.lastUpdateAt === null ? null : new Date(entry.lastUpdateAt) },
          now,
          this.staleAfterMs,
        ),
      }));
    const attempts = (await this.attempts.list({ userId, limit: ATTEMPTS_SHOWN }))
      .filter((attempt) => inVenues(actor.venueIds, attempt.venueId))
      .map((attempt) => ({ ...attempt, reasonKey: attemptReasonKey(attempt.outcome, attempt.reason) }));
    const usage = await this.usage.usageOf(actor, userId, { venueId });
    await this.pages.render(request, response, 200, 'user-page/page', {
      user,
      plan: usage.plan,
      usageVenueId: usage.venueId,
      usageBars: usageBars(usage),
      venues: user.venueIds.filter((entry) => inVenues(actor.venueIds, entry)),
      sessions,
      attempts,
      jobs: await this.jobsOf(request, userId, venueId),
      context: queryString({ venueId }),
      zoneVenueId: venueId ?? user.venueIds[0],
    });
  }

  /** The jobs part of the page alone, which htmx polls every 2 s while a job is still open. */
  @Get('users/:id/jobs')
  async jobsPart(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: unknown): Promise<void> {
    const userId = pathId(id);
    const venueId = queryValue(request, 'venueId') || undefined;
    await this.pages.render(request, response, 200, 'user-page/_jobs', {
      user: { _id: userId },
      jobs: await this.jobsOf(request, userId, venueId),
      context: queryString({ venueId }),
    });
  }

  private async jobsOf(request: ConsoleRequest, userId: string, venueId: string | undefined): Promise<JobView[]> {
    const actor = operatorActor(session(request).operator);
    const { data } = await this.jobs.pageOfUser(actor, userId, { venueId, page: 1, limit: JOBS_SHOWN });
    return data
      .map((job) => jobViewOfDto(job, actor.venueIds))
      .filter((job) => job.sessions.length > 0 || job.hiddenSessions === 0);
  }
}
