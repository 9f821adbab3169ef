import { Get, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { clientKey } from '../../auth/rate-limit/rate-limit.guard.js';
import { RateLimiterService } from '../../auth/rate-limit/rate-limiter.service.js';
import type { ApiRequest } from '../../common/request-context.js';
import { client, ConsolePages, session } from '../console-page.js';
import { field } from '../../web/forms.js';
import { PageRedirect, PageRefusal } from '../../web/errors.js';
import { Access, CONSOLE_PAGES, WithoutFormToken } from '../console.guard.js';
import { recoveryCodesPath } from '../console-paths.js';
import { qrCodeSvg } from '../../web/qr-svg.js';
import type { ConsoleRequest } from '../console-request.js';
import { ConsoleSessionsService } from '../../operators/console-sessions.service.js';
import { ConsoleViews } from '../console-views.js';
import { EnrolmentService } from '../../operators/enrolment.service.js';
import { DEFAULT_LANGUAGE } from '../../web/language.js';
import { PASSKEY_ANSWER_MAX_LENGTH, PasskeysService } from '../../operators/passkeys.service.js';
import { PasswordChangeService } from '../../operators/password-change.service.js';
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js';
import { SignInService, type SignInOutcome } from '../../operators/sign-in.service.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

/** The password policy's reasons, as message keys of the catalogues. */
const PASSWORD_PROBLEMS: Array<[RegExp, string]> = [
  [/^mismatch$/, 'password.mismatch'],
  [/^current$/, 'password.currentWrong'],
  [/^same$/, 'password.same'],
  [/at least/, 'password.tooShort'],
  [/at most/, 'password.tooLong'],
  [/email or name/, 'password.personal'],
  [/repeated/, 'password.repeated'],
  [/common/, 'password.common'],
];

/** The pages a view of this screen names. */
type SignInView = 'login' | 'second-factor' | 'password' | 'enrol';

/**
 * Signing in to the console: password, second factor (TOTP, recovery code, passkey), enrolment of
 * the second factor, the first change of a one-time password, and signing out.
 */
@ConsoleScreen()
export class SignInController {
  constructor(
    private readonly views: ConsoleViews,
    private readonly pages: ConsolePages,
    private readonly signIn: SignInService,
    private readonly sessions: ConsoleSessionsService,
    private readonly enrolment: EnrolmentService,
    private readonly passwords: PasswordChangeService,
    private readonly passkeys: PasskeysService,
    private readonly limiter: RateLimiterService,
  ) {}

  @Get('login')
  @Access('anyone')
  async loginForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.page(request, response, 200, 'login', { email: '' });
  }

  @Post('login')
  @Access('anyone')
  async login(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.countClientAttempt(request);
    const email = field(request, 'email');
    const outcome = await this.signIn.withPassword(email, field(request, 'password'), client(request));
    await this.afterAttempt(request, response, outcome, CONSOLE_PAGES.secondFactor, 'login', { email });
  }

  @Get('login/second-factor')
  @Access('second-factor')
  async secondFactorForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.page(request, response, 200, 'second-factor', await this.secondFactorData(request));
  }

  /** The options the browser signs in with one of the operator's passkeys (JSON); 404 when it has none. */
  @Get('login/passkey/options')
  @Access('second-factor')
  async passkeyOptions(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const options = await this.passkeys.authenticationOptions(session(request));
    if (options === null) throw new PageRefusal(404, 'error.notFound');
    response.json(options);
  }

  @Post('login/passkey')
  @Access('second-factor')
  async passkey(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.countClientAttempt(request);
    const check = this.passkeys.assertion(field(request, 'response', PASSKEY_ANSWER_MAX_LENGTH));
    const outcome = await this.signIn.withPasskey(session(request), check, client(request));
    const data = { ...(await this.secondFactorData(request)), passkeyRefused: outcome.kind === 'refused' };
    await this.afterAttempt(request, response, outcome, CONSOLE_PAGES.home, 'second-factor', data);
  }

  @Post('login/second-factor')
  @Access('second-factor')
  async secondFactor(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.countClientAttempt(request);
    const outcome = await this.signIn.withTotp(session(request), field(request, 'code'), client(request));
    const data = await this.secondFactorData(request);
    await this.afterAttempt(request, response, outcome, CONSOLE_PAGES.home, 'second-factor', data);
  }

  @Post('login/recovery')
  @Access('second-factor')
  async recovery(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.countClientAttempt(request);
    const outcome = await this.signIn.withRecoveryCode(session(request), field(request, 'code'), client(request));
    const data = { ...(await this.secondFactorData(request)), recovery: true };
    await this.afterAttempt(request, response, outcome, CONSOLE_PAGES.home, 'second-factor', data);
  }

  @Get('two-factor')
  @Access('enrolment')
  async enrolmentForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.showEnrolment(request, response, 200, false);
  }

  @Post('two-factor')
  @Access('enrolment')
  async enrol(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const current = session(request);
    if (current.operator.totpEnrolled) throw new PageRedirect(CONSOLE_PAGES.home);
    const claim = this.pages.claim<string[]>(request, (codes, resultId) => ({
      link: recoveryCodesPath(resultId),
      secret: codes,
    }));
    const result = await this.enrolment.confirm(current, field(request, 'code'), client(request), claim);
    if (result === null) {
      await this.showEnrolment(request, response, 422, true);
      return;
    }
    setSessionCookie(request, response, result.sessionId);
    // Post/Redirect/Get: the codes are on a page a reload shows again (for its window), to the new session id.
    response.redirect(303, recoveryCodesPath(claim.resultId));
  }

  @Get('password')
  @Access('unfinished')
  async passwordForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    await this.page(request, response, 200, 'password', { required: operator.mustChangePassword, problem: null });
  }

  @Post('password')
  @Access('unfinished')
  async changePassword(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const current = session(request);
    const outcome = await this.passwords.change(
      current,
      field(request, 'current'),
      field(request, 'password'),
      field(request, 'repeat'),
      client(request),
      this.pages.claim(request, { link: CONSOLE_PAGES.home }),
    );
    if (outcome.kind === 'wait') {
      throw new PageRefusal(429, 'error.tooMany', { seconds: outcome.seconds }, outcome.seconds);
    }
    if (outcome.kind === 'problem') {
      const key = PASSWORD_PROBLEMS.find(([pattern]) => pattern.test(outcome.problem))?.[1] ?? 'password.invalid';
      await this.page(request, response, 422, 'password', {
        required: current.operator.mustChangePassword,
        problem: key,
      });
      return;
    }
    setSessionCookie(request, response, outcome.sessionId);
    response.redirect(303, CONSOLE_PAGES.home);
  }

  @Post('logout')
  @Access('any-session')
  async logout(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.sessions.end(session(request).idHash);
    clearSessionCookie(request, response);
    response.redirect(303, CONSOLE_PAGES.login);
  }

  @Post('logout-everywhere')
  @Access('unfinished')
  @WithoutFormToken()
  async logoutEverywhere(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    await this.sessions.endEverywhere(session(request).operator.id);
    clearSessionCookie(request, response);
    response.redirect(303, CONSOLE_PAGES.login);
  }

  private async showEnrolment(request: ConsoleRequest, response: Response, status: number, wrongCode: boolean) {
    const current = session(request);
    if (current.operator.totpEnrolled) throw new PageRedirect(CONSOLE_PAGES.home);
    const t = this.views.translator(request.consoleLanguage ?? DEFAULT_LANGUAGE);
    const offer = await this.enrolment.offer(current);
    const qrSvg = qrCodeSvg(offer.uri, t('enrol.qrLabel'));
    await this.page(request, response, status, 'enrol', { offer, qrSvg, wrongCode, operator: current.operator });
  }

  /** What the second-factor page shows besides the code forms: a passkey button when the operator has one. */
  private async secondFactorData(request: ConsoleRequest): Promise<Record<string, unknown>> {
    const offered = this.passkeys.offered && (await this.passkeys.list(session(request).operator.id)).length > 0;
    return { passkeys: offered };
  }

  /** The address's attempts go through the API's shared (Redis) limiter for callers without a token. */
  private async countClientAttempt(request: ConsoleRequest): Promise<void> {
    if (!this.limiter.enabled('unauthenticated')) return;
    const decision = await this.limiter.consume('unauthenticated', clientKey(request as ApiRequest));
    if (!decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      throw new PageRefusal(429, 'error.tooMany', { seconds }, seconds);
    }
  }

  private async afterAttempt(
    request: ConsoleRequest,
    response: Response,
    outcome: SignInOutcome,
    next: string,
    view: SignInView,
    data: Record<string, unknown>,
  ): Promise<void> {
    if (outcome.kind === 'session') {
      setSessionCookie(request, response, outcome.sessionId);
      response.redirect(303, next);
      return;
    }
    if (outcome.kind === 'wait') response.setHeader('Retry-After', String(outcome.seconds));
    const status = outcome.kind === 'wait' ? 429 : 401;
    const problem =
      outcome.kind === 'wait'
        ? { key: 'signin.wait', values: { seconds: outcome.seconds } }
        : outcome.kind === 'expired'
          ? { key: 'signin.oneTimePasswordExpired', values: {} }
          : null;
    await this.page(request, response, status, view, { ...data, refused: outcome.kind === 'refused', problem });
  }

  private async page(
    request: ConsoleRequest,
    response: Response,
    status: number,
    view: SignInView,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.pages.render(request, response, status, `sign-in/${view}`, data);
  }
}
