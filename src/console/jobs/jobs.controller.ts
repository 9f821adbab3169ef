import { Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { UserUnauthJobsService } from '../../hotspot-users/user-unauth-jobs.service.js';
import { UNAUTH_REASONS } from '../../unauth-jobs/entities/unauth-job.entity.js';
import { PageRedirect, PageRefusal } from '../../web/errors.js';
import { ConsolePages, operatorActor, requirePermission, session } from '../console-page.js';
import { queryValue } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { jobViewOf, namedJobs, type JobView } from '../network/network-view.js';
import { consoleOrigin, pathId, queryString } from '../network/network-request.js';
import { JOB_STATES, jobReasonOf, jobStatusOf, pageNumber } from '../network/network.rules.js';
import { DisconnectBanner } from '../network/disconnect-banner.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

/** Jobs per page of the list. */
const PAGE_SIZE = 25;

/**
 * Disconnect jobs: the unauth jobs the operator may read (the v1 job read's venue rules), by state
 * (a done job that left sessions unsent is `not-sent`) and reason; a job's page with each session's
 * outcome and each dispatcher's delivery; Retry now for a failed job (write permission, confirmed).
 * Both pages carry the banner that says when Disconnects reach no NAS.
 */
@ConsoleScreen()
export class JobsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly jobs: UserUnauthJobsService,
    private readonly banner: DisconnectBanner,
  ) {}

  @Get('jobs')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const actor = operatorActor(session(request).operator);
    const status = jobStatusOf(queryValue(request, 'status'));
    const reason = jobReasonOf(queryValue(request, 'reason'));
    const page = pageNumber(queryValue(request, 'page'));
    const { jobs, pagination } = await this.jobs.pageInScope(actor, { status, reason }, { page, limit: PAGE_SIZE });
    const names = await this.jobs.guestNames(jobs.map((job) => job.userId));
    await this.pages.render(request, response, 200, 'jobs/list', {
      jobs: namedJobs(
        jobs.map((job) => jobViewOf(job, actor.venueIds)),
        names,
      ),
      pagination,
      status: status ?? '',
      reason: reason ?? '',
      statuses: JOB_STATES,
      disconnectProblem: await this.banner.problem(),
      reasons: UNAUTH_REASONS,
      pageLink: (to: number) => `/admin/jobs${queryString({ status, reason, page: to })}`,
    });
  }

  @Get('jobs/:id')
  async page(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: unknown): Promise<void> {
    const job = await this.readable(request, id);
    await this.pages.render(request, response, 200, 'jobs/page', {
      job,
      disconnectProblem: await this.banner.problem(),
    });
  }

  /** A job's outcomes alone, which htmx polls every 2 s while the job is still open. */
  @Get('jobs/:id/status')
  async status(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: unknown): Promise<void> {
    await this.pages.render(request, response, 200, 'jobs/_status', { job: await this.readable(request, id) });
  }

  @Get('jobs/:id/retry')
  async confirmRetry(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: unknown,
  ): Promise<void> {
    requirePermission(request, 'write');
    const job = await this.readable(request, id);
    if (job.status !== 'failed') throw new PageRefusal(409, 'jobs.notFailed');
    await this.pages.render(request, response, 200, 'jobs/retry', { job });
  }

  @Post('jobs/:id/retry')
  async retry(@Req() request: ConsoleRequest, @Param('id') id: unknown): Promise<void> {
    const operator = requirePermission(request, 'write');
    const jobId = pathId(id);
    try {
      const claim = this.pages.claim(request, { link: `/admin/jobs/${encodeURIComponent(jobId)}` });
      await this.jobs.retry(operatorActor(operator), jobId, consoleOrigin(request), claim);
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === 409) throw new PageRefusal(409, 'jobs.notFailed');
      throw error;
    }
    throw new PageRedirect(`/admin/jobs/${encodeURIComponent(jobId)}?notice=notice.jobs.retried`);
  }

  /** The job under the v1 read's rules, with its user's name. */
  private async readable(request: ConsoleRequest, id: unknown): Promise<JobView> {
    const actor = operatorActor(session(request).operator);
    const job = jobViewOf(await this.jobs.find(actor, pathId(id)), actor.venueIds);
    const [named] = namedJobs([job], await this.jobs.guestNames([job.userId]));
    return named;
  }
}
