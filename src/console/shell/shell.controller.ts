import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageRefusal } from '../../web/errors.js';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE } from '../../web/language.js';
import { consoleStaticFiles } from '../console-assets.js';
import { field } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { ConsoleScreen } from '../console-screen.decorator.js';
import { Access, CONSOLE_PAGES } from '../console.guard.js';
import { consoleReturnPath } from '../console.rules.js';

const LANGUAGE_COOKIE_MAX_AGE_MS = 365 * 86_400_000;

/** The console's static files, read once at start-up: only these names are served (see consoleStaticFiles). */
const STATIC_TYPES: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  // Batches: the cards page's print stylesheet.
  'print.css': 'text/css; charset=utf-8',
  'htmx.min.js': 'text/javascript; charset=utf-8',
  // Passkeys: @simplewebauthn/browser and the console's use of it.
  'webauthn.min.js': 'text/javascript; charset=utf-8',
  'passkeys.js': 'text/javascript; charset=utf-8',
};

/**
 * What every page of the console shares besides its layout: the language switch and the static files
 * (the stylesheets and scripts the layout names).
 */
@ConsoleScreen()
export class ShellController {
  private readonly staticFiles = consoleStaticFiles();

  /** Keeps the chosen language in a cookie (not a session: it is no secret and needs no sign-in). */
  @Post('language')
  @Access('anyone')
  language(@Req() request: ConsoleRequest, @Res() response: Response): void {
    const chosen = field(request, 'lang');
    const language = isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
    response.cookie(LANGUAGE_COOKIE, language, {
      path: '/admin',
      sameSite: 'strict',
      secure: request.secure,
      maxAge: LANGUAGE_COOKIE_MAX_AGE_MS,
    });
    response.redirect(303, consoleReturnPath(field(request, 'back')) ?? CONSOLE_PAGES.home);
  }

  @Get('static/:file')
  @Access('anyone')
  staticFile(@Param('file') name: string, @Res() response: Response): void {
    const body = Object.hasOwn(STATIC_TYPES, name) ? this.staticFiles.get(name) : undefined;
    if (body === undefined) throw new PageRefusal(404, 'error.notFound');
    response.setHeader('Cache-Control', 'public, max-age=3600');
    response.type(STATIC_TYPES[name]).send(body);
  }
}
