import { Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SessionDisconnectService, type Disconnected } from '../../hotspot-users/session-disconnect.service.js';
import { UserUnauthJobsService } from '../../hotspot-users/user-unauth-jobs.service.js';
import { VenueSessionsService, type OnlineSession } from '../../hotspot-users/venue-sessions.service.js';
import { SEARCH_QUERY_MAX_LENGTH, searchPrefixes } from '../../hotspot-users/user-search.rules.js';
import type { Actor } from '../../auth/actor.js';
import { PageRedirect, PageRefusal } from '../../web/errors.js';
import { ConsolePages, operatorActor, requirePermission, session } from '../console-page.js';
import { queryValue } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { disconnectView, jobViewOf, namedJobs, type DisconnectView, type JobView } from '../network/network-view.js';
import { DisconnectBanner } from '../network/disconnect-banner.js';
import { consoleOrigin, pathId, queryString } from '../network/network-request.js';
import { pageNumber } from '../network/network.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';
import { UsageService } from '../../usage/usage.service.js';
import { tightestBar, usageBars, type UsageBar } from '../network/usage-view.js';

/** Sessions per page of Online now. */
const PAGE_SIZE = 25;

/**
 * A row of Online now: the session, while its Disconnect is unconfirmed how that stands, and the
 * counter of the user's plan nearest its limit (none without a limit).
 */
type OnlineRow = OnlineSession & { disconnect: DisconnectView | null; usage: UsageBar | null };

/**
 * Online now: a venue's active sessions, newest first (those of the users a search `q` finds, read as
 * the users list reads it), stale ones flagged, each with a Disconnect
 * (write permission, confirmed on a page of its own) that ends it through an unauth job of reason
 * `operator`; the page then follows that job until the NAS has answered. A session ended here (by a
 * Disconnect, a block, an expiry…) stays listed as "disconnecting, not confirmed" until its NAS
 * confirms (ACK, NAK 503), reports it over (Stop, Accounting-On/Off) or goes silent on it for the stale
 * window; a banner says when Disconnects reach no NAS at all.
 */
@ConsoleScreen()
export class OnlineController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly sessions: VenueSessionsService,
    private readonly disconnects: SessionDisconnectService,
    private readonly jobs: UserUnauthJobsService,
    private readonly banner: DisconnectBanner,
    private readonly usage: UsageService,
  ) {}

  @Get('online')
  async page(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = session(request).operator;
    const actor = operatorActor(operator);
    const asked = queryValue(request, 'venueId').trim();
    const venueId = asked !== '' ? asked : (operator.venueIds?.[0] ?? '');
    const page = pageNumber(queryValue(request, 'page'));
    // The users list's search (a word of the name, username, room, a phone's start or end, a MAC's start or end).
    const q = queryValue(request, 'q').trim().slice(0, SEARCH_QUERY_MAX_LENGTH);
    const search = q === '' ? null : searchPrefixes(q);
    const list =
      venueId === '' ? null : await this.sessions.listOnline(actor, { venueId, page, limit: PAGE_SIZE, search });
    await this.pages.render(request, response, 200, 'online/page', {
      venueId,
      venueChoices: await this.pages.venueChoices(operator),
      restricted: operator.venueIds !== null,
      sessions: await this.withUsage(actor, venueId, await this.withDisconnects(actor, list?.data ?? [])),
      pagination: list?.pagination ?? null,
      active: list?.active ?? 0,
      disconnecting: list?.disconnecting ?? 0,
      q,
      searchMaxLength: SEARCH_QUERY_MAX_LENGTH,
      pageLink: (to: number) => `/admin/online${queryString({ venueId, q, page: to })}`,
      job: await this.followed(request),
      context: queryString({ venueId }),
      disconnectProblem: await this.banner.problem(),
    });
  }

  /** The confirmation of a Disconnect: what will be ended, and the button that POSTs it. */
  @Get('online/:sessionId/disconnect')
  async confirm(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('sessionId') sessionId: unknown,
  ): Promise<void> {
    const operator = requirePermission(request, 'write');
    const found = await this.disconnects.findWithGuest(operatorActor(operator), pathId(sessionId));
    await this.pages.render(request, response, 200, 'online/disconnect', {
      session: found.session,
      guest: found.guest,
      userLink: `/admin/users/${encodeURIComponent(found.session.userId)}${queryString({ venueId: found.session.venueId })}`,
    });
  }

  @Post('online/:sessionId/disconnect')
  async disconnect(@Req() request: ConsoleRequest, @Param('sessionId') sessionId: unknown): Promise<void> {
    const operator = requirePermission(request, 'write');
    let done;
    try {
      const claim = this.pages.claim<Disconnected>(request, (ended) => ({
        link: `/admin/online${queryString({ venueId: ended.session.venueId, job: ended.unauthJobId })}`,
      }));
      done = await this.disconnects.disconnect(
        operatorActor(operator),
        pathId(sessionId),
        consoleOrigin(request),
        claim,
      );
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === 409) throw new PageRefusal(409, 'online.ended');
      throw error;
    }
    const venueId = done.session.venueId;
    throw new PageRedirect(
      `/admin/online${queryString({ venueId, job: done.unauthJobId, notice: 'notice.online.disconnected' })}`,
    );
  }

  /**
   * Each session with, while its Disconnect is unconfirmed, how that stands: the session's outcome in
   * the job it waits on (not tried yet, no answer, refused, not sent…), which the operator may read.
   */
  private async withDisconnects(actor: Actor, sessions: OnlineSession[]): Promise<OnlineRow[]> {
    const jobs = new Map<string, JobView | null>();
    for (const id of new Set(sessions.flatMap((entry) => entry.disconnectJobId ?? []))) {
      jobs.set(id, await this.readableJob(actor, id));
    }
    return sessions.map((entry) => {
      if (entry.disconnectJobId === null) return { ...entry, disconnect: null, usage: null };
      const job = jobs.get(entry.disconnectJobId) ?? null;
      const outcome = job?.sessions.find((shown) => shown.id === entry.id) ?? null;
      return { ...entry, disconnect: disconnectView(entry.disconnectJobId, outcome), usage: null };
    });
  }

  /** Each row with its user's counter nearest its plan's limit at the venue, read once per user of the page. */
  private async withUsage(actor: Actor, venueId: string, rows: OnlineRow[]): Promise<OnlineRow[]> {
    const bars = new Map<string, UsageBar | null>();
    for (const userId of new Set(rows.map((row) => row.userId))) {
      bars.set(userId, tightestBar(usageBars(await this.usage.usageOf(actor, userId, { venueId }))));
    }
    return rows.map((row) => ({ ...row, usage: bars.get(row.userId) ?? null }));
  }

  /** The job a Disconnect wrote, named by `job` in the URL, while the operator may read it; else none. */
  private async followed(request: ConsoleRequest): Promise<JobView | null> {
    const id = queryValue(request, 'job');
    if (id === '') return null;
    const job = await this.readableJob(operatorActor(session(request).operator), id);
    if (job === null) return null;
    const [named] = namedJobs([job], await this.jobs.guestNames([job.userId]));
    return named;
  }

  private async readableJob(actor: Actor, id: string): Promise<JobView | null> {
    try {
      return jobViewOf(await this.jobs.find(actor, id), actor.venueIds);
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === 404) return null;
      throw error;
    }
  }
}
