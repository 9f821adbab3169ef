import { Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SessionDisconnectService, type Disconnected } from '../../hotspot-users/session-disconnect.service.js';
import { UserUnauthJobsService } from '../../hotspot-users/user-unauth-jobs.service.js';
import { VenueSessionsService } from '../../hotspot-users/venue-sessions.service.js';
import { PageRedirect, PageRefusal } from '../../web/errors.js';
import { ConsolePages, operatorActor, requirePermission, session } from '../console-page.js';
import { queryValue } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { jobViewOf, type JobView } from '../network/network-view.js';
import { consoleOrigin, pathId, queryString } from '../network/network-request.js';
import { pageNumber } from '../network/network.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

/** Sessions per page of Online now. */
const PAGE_SIZE = 25;

/**
 * Online now: a venue's active sessions, newest first, stale ones flagged, each with a Disconnect
 * (write permission, confirmed on a page of its own) that ends it through an unauth job of reason
 * `operator`; the page then follows that job until the NAS has answered.
 */
@ConsoleScreen()
export class OnlineController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly sessions: VenueSessionsService,
    private readonly disconnects: SessionDisconnectService,
    private readonly jobs: UserUnauthJobsService,
  ) {}

  @Get('online')
  async page(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = session(request).operator;
    const actor = operatorActor(operator);
    const asked = queryValue(request, 'venueId').trim();
    const venueId = asked !== '' ? asked : (operator.venueIds?.[0] ?? '');
    const page = pageNumber(queryValue(request, 'page'));
    const list =
      venueId === '' ? null : await this.sessions.listNamed(actor, { venueId, page, limit: PAGE_SIZE, ended: false });
    await this.pages.render(request, response, 200, 'online/page', {
      venueId,
      venueChoices: await this.pages.venueChoices(operator),
      restricted: operator.venueIds !== null,
      sessions: list?.data ?? [],
      pagination: list?.pagination ?? null,
      pageLink: (to: number) => `/admin/online${queryString({ venueId, page: to })}`,
      job: await this.followed(request),
      context: queryString({ venueId }),
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
    const found = await this.disconnects.find(operatorActor(operator), pathId(sessionId));
    await this.pages.render(request, response, 200, 'online/disconnect', { session: found });
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

  /** The job a Disconnect wrote, named by `job` in the URL, while the operator may read it; else none. */
  private async followed(request: ConsoleRequest): Promise<JobView | null> {
    const id = queryValue(request, 'job');
    if (id === '') return null;
    const actor = operatorActor(session(request).operator);
    try {
      return jobViewOf(await this.jobs.find(actor, id), actor.venueIds);
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === 404) return null;
      throw error;
    }
  }
}
