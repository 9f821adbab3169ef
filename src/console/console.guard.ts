import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../config/configuration.js';
import { ConsoleFormTokensService } from '../operators/console-form-tokens.service.js';
import { ConsoleSessionsService } from '../operators/console-sessions.service.js';
import { isFormTokenOf } from '../operators/form-tokens.js';
import { crossSiteRefusal } from '../web/cross-site.js';
import { FormAlreadySent, PageRedirect, PageRefusal } from '../web/errors.js';
import { field } from '../web/forms.js';
import type { ConsoleRequest } from './console-request.js';
import { requestCookies } from '../web/cookies.js';
import { LANGUAGE_COOKIE, pickLanguage } from '../web/language.js';
import { readSessionCookie } from './session-cookie.js';

/**
 * Who may reach a console route: anyone (sign-in, static files); a session still owing its second
 * factor; any session (sign out); a signed-in operator even with a password change still owed
 * (`unfinished`: the password page, sign out everywhere); one with at most the enrolment owed
 * (`enrolment`); or, by default, a signed-in operator with nothing left to do first.
 */
export type ConsoleAccess = 'anyone' | 'second-factor' | 'any-session' | 'unfinished' | 'enrolment' | 'signed-in';
const CONSOLE_ACCESS = 'hotspot:console-access';
export const Access = (access: ConsoleAccess): MethodDecorator => SetMetadata(CONSOLE_ACCESS, access);

/** The hidden field of every console form that changes something: its one-time token. */
export const FORM_TOKEN_FIELD = 'formToken';
const WITHOUT_FORM_TOKEN = 'hotspot:console-without-form-token';
/**
 * A POST of a signed-in session that takes no form token: signing out everywhere, which a second
 * POST cannot do twice (the session is over after the first). The sign-in's own POSTs (access
 * 'anyone', 'second-factor', 'any-session') take none either: there is no signed-in session to bind one to.
 */
export const WithoutFormToken = (): MethodDecorator => SetMetadata(WITHOUT_FORM_TOKEN, true);

export const CONSOLE_PAGES = {
  home: '/admin',
  login: '/admin/login',
  secondFactor: '/admin/login/second-factor',
  password: '/admin/password',
  enrolment: '/admin/two-factor',
} as const;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The console's own guard (the v1 API's global guards let /admin through: its controller is
 * @Public()). First, a state-changing request must not come from another site (Fetch Metadata or
 * Origin); then the session cookie is checked against the database on every request, and an
 * operator who must change the password or enrol a second factor is sent there first. Last, a POST
 * of a signed-in session must bring a one-time form token of that session (refused like a forged
 * form otherwise) that no earlier POST used (else FormAlreadySent: the page of what that one did).
 */
@Injectable()
export class ConsoleGuard implements CanActivate {
  private readonly adminRequire2fa: boolean;
  private readonly operatorsRequire2fa: boolean;

  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: ConsoleSessionsService,
    private readonly formTokens: ConsoleFormTokensService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.adminRequire2fa = config.get('console', { infer: true }).adminRequire2fa;
    this.operatorsRequire2fa = config.get('console', { infer: true }).operatorsRequire2fa;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    request.consoleLanguage = pickLanguage(
      requestCookies(request).get(LANGUAGE_COOKIE),
      request.headers['accept-language'],
    );
    if (!SAFE_METHODS.has(request.method)) {
      const ownOrigin = `${request.protocol}://${request.get('host') ?? ''}`;
      const refusal = crossSiteRefusal(
        { secFetchSite: request.get('sec-fetch-site'), origin: request.get('origin') },
        ownOrigin,
      );
      if (refusal !== null) throw new PageRefusal(403, 'error.crossSite');
    }
    const access = this.reflector.get<ConsoleAccess | undefined>(CONSOLE_ACCESS, context.getHandler()) ?? 'signed-in';
    if (access === 'anyone') return true;

    const id = readSessionCookie(request);
    const session = id === undefined ? null : await this.sessions.authenticate(id);
    if (id === undefined || session === null) throw new PageRedirect(CONSOLE_PAGES.login, id !== undefined);
    request.consoleSession = session;
    if (access === 'any-session') return true;
    if (session.stage === 'second-factor') {
      if (access !== 'second-factor') throw new PageRedirect(CONSOLE_PAGES.secondFactor);
      return true;
    }
    if (access === 'second-factor') throw new PageRedirect(CONSOLE_PAGES.home);
    const { operator } = session;
    if (operator.mustChangePassword) {
      if (access !== 'unfinished') throw new PageRedirect(CONSOLE_PAGES.password);
    } else {
      const required = this.operatorsRequire2fa || (operator.admin && this.adminRequire2fa);
      const mustEnrol = required && !operator.totpEnrolled;
      if (mustEnrol && access === 'signed-in') throw new PageRedirect(CONSOLE_PAGES.enrolment);
    }
    const tokenless = this.reflector.get<boolean | undefined>(WITHOUT_FORM_TOKEN, context.getHandler()) === true;
    if (!SAFE_METHODS.has(request.method) && !tokenless) await this.checkFormToken(request, id);
    return true;
  }

  /** The form's token: of this session (`sessionId`, the cookie's value), and not used before. */
  private async checkFormToken(request: ConsoleRequest, sessionId: string): Promise<void> {
    const token = field(request, FORM_TOKEN_FIELD, 64);
    if (!isFormTokenOf(token, sessionId)) throw new PageRefusal(403, 'error.formToken');
    const use = await this.formTokens.use(token);
    if (use.used) throw new FormAlreadySent(use.link);
    request.consoleFormToken = token;
  }
}
