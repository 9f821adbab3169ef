import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { AuditOrigin } from '../audit/audit.rules.js';
import type { Actor } from '../auth/actor.js';
import { satisfies, type Permission } from '../auth/permissions.js';
import { Clock } from '../common/clock.js';
import type { ApiRequest } from '../common/request-context.js';
import { VENUE_ID_PATTERN } from '../common/validation/validators.js';
import { parseIfMatch } from '../hotspot-users/hotspot-user.etag.js';
import type { Precondition } from '../hotspot-users/user-access.js';
import { DEFAULT_CHECK_OUT_TIME } from '../venues/venue-rules.js';
import { VenuesService, type Venue } from '../venues/venues.service.js';
import { bytesText, timeHtml } from '../web/format.js';
import { PageRedirect, PageRefusal } from '../web/errors.js';
import type { ConsoleRequest } from './console-request.js';
import type { ClientInfo } from '../operators/console-sessions.service.js';
import {
  ConsoleFormTokensService,
  type FormClaim,
  type FormOutcome,
  type FormResult,
} from '../operators/console-form-tokens.service.js';
import { newFormToken } from '../operators/form-tokens.js';
import { readSessionCookie } from './session-cookie.js';
import { ConsoleViews } from './console-views.js';
import { DEFAULT_LANGUAGE } from '../web/language.js';
import { field, queryValue } from '../web/forms.js';
import type { SessionWithOperator } from '../operators/session-with-operator.js';

/** How long the registered venues (names, zones, check-out times) the pages use are reused before they are read again. */
const VENUES_TTL_MS = 5_000;

export type SignedInOperator = SessionWithOperator['operator'];

/** A venue's times as a page uses them: the zone dates are typed and shown in, and its check-out time. */
export interface VenueTimes {
  /** The venue's zone, else the operator's, else UTC: always a name to show next to a time. */
  zone: string;
  checkOutTime: string;
  now: Date;
}

/** A link of the console's navigation; `admin` ones are shown to administrators only. */
interface NavItem {
  href: string;
  key: string;
  admin?: boolean;
}

/** The console's navigation, in the order the menu shows it; each page names its own by href. */
export const CONSOLE_NAV: readonly NavItem[] = [
  { href: '/admin', key: 'nav.dashboard' },
  { href: '/admin/users', key: 'nav.users' },
  { href: '/admin/batches', key: 'nav.batches' },
  { href: '/admin/online', key: 'nav.online' },
  { href: '/admin/logins', key: 'nav.logins' },
  { href: '/admin/jobs', key: 'nav.jobs' },
  { href: '/admin/audit', key: 'nav.audit' },
  { href: '/admin/settings/tokens', key: 'nav.tokens', admin: true },
  { href: '/admin/settings/nas', key: 'nav.nas', admin: true },
  { href: '/admin/settings/venues', key: 'nav.venues', admin: true },
  { href: '/admin/settings/plans', key: 'nav.plans' },
  { href: '/admin/settings/social', key: 'nav.social', admin: true },
  { href: '/admin/settings/operators', key: 'nav.operators', admin: true },
  { href: '/admin/account', key: 'nav.account' },
];

/** The signed-in session of a request the guard let through (a route of access 'anyone' has none). */
export function session(request: ConsoleRequest): SessionWithOperator {
  if (request.consoleSession === undefined) throw new PageRedirect('/admin/login');
  return request.consoleSession;
}

export function client(request: ConsoleRequest): ClientInfo {
  return {
    ip: request.ip ?? 'unknown',
    userAgent: request.get('user-agent') ?? '',
    requestId: originOf(request).requestId,
  };
}

/** The signed-in operator as the services' Actor: the same permission and venue rules as a token's. */
export function operatorActor(operator: SignedInOperator): Actor {
  return {
    kind: 'operator',
    id: operator.id,
    name: operator.email,
    permissions: operator.permissions,
    venueIds: operator.venueIds,
  };
}

/** Refuses (403 page) an operator without `permission`; every state-changing console route calls it first. */
export function requirePermission(request: ConsoleRequest, permission: Permission): SignedInOperator {
  const { operator } = session(request);
  if (!satisfies(operator.permissions, permission)) throw new PageRefusal(403, 'error.forbidden');
  return operator;
}

/** Refuses (403 page) an operator who is not an administrator (the settings). */
export function requireAdmin(request: ConsoleRequest): SignedInOperator {
  const { operator } = session(request);
  if (!operator.admin) throw new PageRefusal(403, 'error.forbidden');
  return operator;
}

/**
 * Renders the console's pages with what every page needs besides its own data: the operator, what
 * the operator may do (`can`, `admin`: a page shows no control its operator cannot use), the
 * navigation, dates in the operator's time zone (`time`), byte counts, venue display names, a
 * notice named by the `notice` query parameter of a redirect after a change (shown only when it is a
 * `notice.*` key of the catalogues, so a link cannot put words on the page), and `formToken()`, a new
 * one-time token of the session for each form that changes something. A handler hands the claim of
 * the token its POST brought (`claim`) to the service that makes the change, and its result page
 * reads what the change left (`result`).
 */
@Injectable()
export class ConsolePages {
  private registry: { at: number; venues: Map<string, Venue> } | null = null;

  constructor(
    private readonly views: ConsoleViews,
    private readonly venuesService: VenuesService,
    private readonly clock: Clock,
    private readonly formTokens: ConsoleFormTokensService,
  ) {}

  /** A whole page (a view that names the layout) or a fragment (a view that does not, for htmx). */
  async render(
    request: ConsoleRequest,
    response: Response,
    status: number,
    view: string,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    const language = request.consoleLanguage ?? DEFAULT_LANGUAGE;
    const operator = request.consoleSession?.operator;
    const venues = operator === undefined ? new Map<string, Venue>() : await this.venues();
    const notice = request.method === 'GET' ? queryValue(request, 'notice') : '';
    // A page about one venue (`venueId`, or `zoneVenueId` when it names none) shows its times in the
    // venue's zone; any other in the operator's.
    const about = typeof data.zoneVenueId === 'string' ? data.zoneVenueId : data.venueId;
    const venue = typeof about === 'string' ? venues.get(about) : undefined;
    const zone = venue?.timeZone ?? operator?.timeZone ?? 'UTC';
    const sessionId = request.consoleSession === undefined ? undefined : readSessionCookie(request);
    const html = this.views.render(view, language, {
      operator,
      admin: operator?.admin === true,
      can: (permission: Permission) => operator !== undefined && satisfies(operator.permissions, permission),
      nav: operator === undefined ? [] : CONSOLE_NAV.filter((item) => item.admin !== true || operator.admin),
      path: request.path,
      here: request.path,
      time: (value: Date | string | null | undefined) => timeHtml(value, zone, language),
      bytes: (value: number | string | null | undefined) => bytesText(value, language),
      venueName: (id: string) => venues.get(id)?.displayName ?? id,
      zoneName: operator === undefined ? null : zone,
      // A message key built at run time (`it.key('audit.actionName', row.action)`); messages.spec lists each stem.
      key: (...parts: string[]) => parts.join('.'),
      notice: notice.startsWith('notice.') && this.views.has(notice) ? notice : null,
      formToken: () => (sessionId === undefined ? '' : newFormToken(sessionId)),
      ...data,
    });
    response.status(status).type('html').send(html);
  }

  /**
   * The claim of the one-time token this POST brought (the guard checked it), for the service call
   * that makes the change: its use commits with the change, and `outcome` (fixed, or made from the
   * change's result) is what a second POST of the form and the result page get.
   */
  claim<T>(
    request: ConsoleRequest,
    outcome: FormOutcome | ((result: T, resultId: string) => FormOutcome),
  ): FormClaim<T> {
    const token = request.consoleFormToken;
    if (token === undefined) throw new Error('The route takes no form token: it has no claim to give.');
    return this.formTokens.claim(session(request).idHash, token, outcome);
  }

  /**
   * A result the session's own POST left (its secret only within its window), about the user `userId`
   * when given; a 404 page for any other.
   */
  async result(request: ConsoleRequest, resultId: string, userId?: string): Promise<FormResult> {
    const found = await this.formTokens.result(session(request).idHash, resultId);
    if (found === null || (userId !== undefined && found.details.userId !== userId)) {
      throw new PageRefusal(404, 'error.notFound');
    }
    return found;
  }

  /** Reads the venues again at the next page (after a change of the registry here). */
  forgetVenueNames(): void {
    this.registry = null;
  }

  /** The zone and check-out time of `venueId` (none, or unregistered: the operator's zone and 12:00). */
  async venueTimes(venueId: string | null, operator: SignedInOperator): Promise<VenueTimes> {
    const venue = venueId === null ? undefined : (await this.venues()).get(venueId);
    return {
      zone: venue?.timeZone ?? operator.timeZone ?? 'UTC',
      checkOutTime: venue?.checkOutTime ?? DEFAULT_CHECK_OUT_TIME,
      now: this.clock.now(),
    };
  }

  /** The registered venue `venueId` (from the registry the pages reuse for a few seconds); null when it is not registered. */
  async venue(venueId: string): Promise<Venue | null> {
    return (await this.venues()).get(venueId) ?? null;
  }

  /** Which of `venueIds` are registered venues (the registry the pages reuse for a few seconds). */
  async registeredVenueIds(): Promise<Set<string>> {
    return new Set((await this.venues()).keys());
  }

  /** The venues a venue picker offers: the operator's own, or every registered venue for an unrestricted operator. */
  async venueChoices(operator: SignedInOperator): Promise<string[]> {
    if (operator.venueIds !== null) return operator.venueIds;
    return (await this.venuesService.list()).map((venue) => venue.id);
  }

  /** The registered venues by id, read at most every few seconds. */
  private async venues(): Promise<Map<string, Venue>> {
    const now = this.clock.now().getTime();
    if (this.registry === null || now - this.registry.at > VENUES_TTL_MS) {
      const venues = await this.venuesService.list();
      this.registry = { at: now, venues: new Map(venues.map((venue) => [venue.id, venue])) };
    }
    return this.registry.venues;
  }
}

/** A venue id from the URL or a hidden field: none when empty, a 400 page when it cannot be one. */
export function venueOf(value: string): string | null {
  if (value === '') return null;
  if (!VENUE_ID_PATTERN.test(value)) throw new PageRefusal(400, 'error.invalid');
  return value;
}

/** The v1 services' venue context of a user: the venue the page is for, if any. */
export function context(venueId: string | null): { venueId?: string } {
  return venueId === null ? {} : { venueId };
}

/** The record's ETag the form carried, as If-Match; a form without one is refused. */
export function etagField(request: ConsoleRequest): Precondition {
  const parsed = parseIfMatch(field(request, 'etag'));
  if (parsed === null || parsed === '*') throw new PageRefusal(400, 'error.invalid');
  return parsed;
}

/** Where a console change came from, for its audit row: the client's address and the request id. */
export function originOf(request: ConsoleRequest): AuditOrigin {
  return { clientAddress: request.ip ?? null, requestId: (request as Partial<ApiRequest>).requestId ?? null };
}
