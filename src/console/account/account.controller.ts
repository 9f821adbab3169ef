import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../../common/clock.js';
import { AccountService } from '../../operators/account.service.js';
import { SECRET_RESULT_MINUTES } from '../../operators/console-form-tokens.service.js';
import { timeZones } from '../../web/format.js';
import { client, ConsolePages, session } from '../console-page.js';
import { field } from '../../web/forms.js';
import { PageRefusal } from '../../web/errors.js';
import { PASSKEY_ANSWER_MAX_LENGTH, PasskeysService } from '../../operators/passkeys.service.js';
import type { ConsoleRequest } from '../console-request.js';
import { recoveryCodesPath } from '../console-paths.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

const ACCOUNT = '/admin/account';

/**
 * My account: who is signed in, the password and second factor (their own pages), new recovery
 * codes (shown once), passkeys, the time zone of every date the console shows, and sign-out everywhere.
 */
@ConsoleScreen()
export class AccountController {
  private readonly zones = timeZones();

  constructor(
    private readonly pages: ConsolePages,
    private readonly account: AccountService,
    private readonly passkeys: PasskeysService,
    private readonly clock: Clock,
  ) {}

  @Get('account')
  async show(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.page(request, response, 200, null, null);
  }

  @Post('account/time-zone')
  async timeZone(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const claim = this.pages.claim(request, { link: ACCOUNT });
    const saved = await this.account.setTimeZone(session(request), field(request, 'timeZone'), client(request), claim);
    if (!saved) return this.page(request, response, 422, 'account.problem.timeZone', null);
    response.redirect(303, `${ACCOUNT}?notice=notice.account.timeZone`);
  }

  /** The options the browser creates a passkey with (JSON); 404 when passkeys are not offered. */
  @Get('account/passkeys/options')
  async passkeyOptions(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const options = await this.passkeys.registrationOptions(session(request));
    if (options === null) throw new PageRefusal(404, 'error.notFound');
    response.json(options);
  }

  @Post('account/passkeys')
  async addPasskey(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const added = await this.passkeys.register(
      session(request),
      field(request, 'response', PASSKEY_ANSWER_MAX_LENGTH),
      field(request, 'name'),
      client(request),
      this.pages.claim(request, { link: ACCOUNT }),
    );
    if (!added) return this.page(request, response, 422, null, null, {}, 'account.problem.passkey');
    response.redirect(303, `${ACCOUNT}?notice=notice.account.passkeyAdded`);
  }

  @Post('account/passkeys/:id/remove')
  async removePasskey(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const claim = this.pages.claim(request, { link: ACCOUNT });
    if (!(await this.passkeys.remove(session(request), id, client(request), claim))) {
      throw new PageRefusal(404, 'error.notFound');
    }
    response.redirect(303, `${ACCOUNT}?notice=notice.account.passkeyRemoved`);
  }

  @Post('account/recovery-codes')
  async recoveryCodes(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const claim = this.pages.claim<string[]>(request, (codes, resultId) => ({
      link: recoveryCodesPath(resultId),
      secret: codes,
    }));
    const outcome = await this.account.newRecoveryCodes(
      session(request),
      { password: field(request, 'password'), code: field(request, 'code') },
      client(request),
      claim,
    );
    if (outcome.kind === 'not-enrolled') return this.page(request, response, 409, null, 'account.problem.notEnrolled');
    if (outcome.kind === 'refused') return this.page(request, response, 422, null, 'account.problem.proof');
    if (outcome.kind === 'wait') {
      response.setHeader('Retry-After', String(outcome.seconds));
      return this.page(request, response, 429, null, 'signin.wait', { seconds: outcome.seconds });
    }
    // Post/Redirect/Get: the codes are on a page a reload shows again (for its window).
    response.redirect(303, recoveryCodesPath(claim.resultId));
  }

  /**
   * Recovery codes that a POST of this session made (here or at the enrolment), while the result's
   * window lasts (SECRET_RESULT_MINUTES).
   */
  @Get('account/recovery-codes/:result')
  async shownCodes(
    @Req() request: ConsoleRequest,
    @Res() response: Response,
    @Param('result') resultId: string,
  ): Promise<void> {
    const result = await this.pages.result(request, resultId);
    await this.pages.render(request, response, 200, 'sign-in/recovery-codes', {
      codes: Array.isArray(result.secret) ? result.secret : null,
      until: result.until,
      minutes: SECRET_RESULT_MINUTES,
    });
  }

  private async page(
    request: ConsoleRequest,
    response: Response,
    status: number,
    zoneProblem: string | null,
    codesProblem: string | null,
    problemValues: Record<string, number> = {},
    passkeyProblem: string | null = null,
  ): Promise<void> {
    const { operator } = session(request);
    await this.pages.render(request, response, status, 'account/show', {
      zones: this.zones,
      zone: operator.timeZone ?? 'UTC',
      now: this.clock.now(),
      zoneProblem,
      codesProblem,
      problemValues,
      passkeysOffered: this.passkeys.offered,
      passkeys: await this.passkeys.list(operator.id),
      passkeyProblem,
    });
  }
}
