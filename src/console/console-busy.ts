import type { Request, Response } from 'express';
import { LANGUAGES, LANGUAGE_COOKIE, pickLanguage, type Language } from '../web/language.js';
import { requestCookies } from '../web/cookies.js';
import type { ConsoleViews } from './console-views.js';

/**
 * The console's page for a request the admission turns away while the service is saturated: the
 * error page with "busy", in the operator's language, drawn once at start-up so that turning a
 * request away costs next to nothing.
 */
export function consoleBusyAnswer(views: ConsoleViews): (req: Request, res: Response) => void {
  const pages = new Map<Language, string>(
    LANGUAGES.map((language) => [language, views.render('shell/error', language, { message: { key: 'error.busy' } })]),
  );
  return (req, res) => {
    const language = pickLanguage(requestCookies(req).get(LANGUAGE_COOKIE), req.headers['accept-language']);
    res.status(503).type('html').send(pages.get(language));
  };
}
