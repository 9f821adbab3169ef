import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { AppConfig } from '../config/configuration.js';
import { ConsoleSessionsService } from '../operators/console-sessions.service.js';
import { crossSiteRefusal } from './console.rules.js';
import { PageRedirect, PageRefusal } from '../web/errors.js';
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
 * operator who must change the password or enrol a second factor is sent there first.
 */
@Injectable()
export class ConsoleGuard implements CanActivate {
  private readonly adminRequire2fa: boolean;
  private readonly operatorsRequire2fa: boolean;

  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: ConsoleSessionsService,
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
    if (session === null) throw new PageRedirect(CONSOLE_PAGES.login, id !== undefined);
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
      return true;
    }
    const required = this.operatorsRequire2fa || (operator.admin && this.adminRequire2fa);
    const mustEnrol = required && !operator.totpEnrolled;
    if (mustEnrol && access === 'signed-in') throw new PageRedirect(CONSOLE_PAGES.enrolment);
    return true;
  }
}
