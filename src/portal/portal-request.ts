import type { Request } from 'express';
import type { Language } from '../web/language.js';
import type { PortalSession } from './portal-session.js';

/** A request of the portal, with what its guard found: the language and the visit's session. */
export interface PortalRequest extends Request {
  portalLanguage?: Language;
  portalSession?: PortalSession | null;
}
