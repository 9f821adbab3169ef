import type { Request } from 'express';
import type { Language } from '../web/language.js';
import type { SessionWithOperator } from '../operators/session-with-operator.js';

/** A console request once ConsoleGuard has looked at it. */
export interface ConsoleRequest extends Request {
  consoleLanguage?: Language;
  consoleSession?: SessionWithOperator;
  /** The one-time form token a POST brought, once the guard found it the session's own and unused. */
  consoleFormToken?: string;
}
