import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { normaliseMac } from '../../common/validation/normalise.js';
import { NasService } from '../../nas/nas.service.js';
import { usernameSearchRange } from '../../radius/login-attempt-search.rules.js';
import { LoginAttemptsService, type LoginAttemptQuery } from '../../radius/login-attempts.service.js';
import { ConsolePages, session } from '../console-page.js';
import { queryValue } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { requestedVenueView } from '../dashboard/dashboard.controller.js';
import { attemptOutcomeFilter, outcomesOf, pageNumber, reasonKey } from './logins.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

const PAGE_SIZE = 50;
/** Deeper pages are not offered: a search narrows better (and attempts are kept for a bounded time anyway). */
const MAX_PAGE = 200;
/** The longest User-Name an attempt keeps. */
const USERNAME_MAX_LENGTH = 253;
/** What the list says when nothing is found before any search. */
const EMPTY_KEYS = {
  rejected: 'logins.empty.rejected',
  accepted: 'logins.empty.accepted',
  all: 'logins.empty.all',
} as const;

/** Login attempts at /admin/logins: why a guest cannot get in, for the front desk. */
@ConsoleScreen()
export class LoginsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly attempts: LoginAttemptsService,
    private readonly nas: NasService,
  ) {}

  @Get('logins')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    const scope = requestedVenueView(request);
    const show = attemptOutcomeFilter(queryValue(request, 'show'));
    const username = queryValue(request, 'username').trim().slice(0, USERNAME_MAX_LENGTH);
    // The start of a username, case and accents ignored: "ROOM12" finds room-1204's attempts' "room1204".
    const usernameStart = usernameSearchRange(username);
    const macText = queryValue(request, 'mac').trim();
    const mac = macText === '' ? null : normaliseMac(macText);
    const page = pageNumber(queryValue(request, 'page'), MAX_PAGE);
    const filters = { venueId: queryValue(request, 'venueId'), show, username, mac: macText };
    const venueChoices = await this.pages.venueChoices(operator);
    const pageHref = (n: number) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(filters)) if (value !== '') params.set(key, value);
      params.set('page', String(n));
      return `/admin/logins?${params.toString()}`;
    };
    if (macText !== '' && mac === null) {
      await this.pages.render(request, response, 422, 'logins/index', {
        filters,
        venueChoices,
        restricted: operator.venueIds !== null,
        problem: 'logins.badMac',
        rows: [],
        page,
        pageHref,
        hasNext: false,
        emptyKey: 'logins.emptySearch',
      });
      return;
    }
    const query: LoginAttemptQuery = {
      scope,
      outcomes: outcomesOf(show),
      ...(usernameStart === null ? {} : { usernameStart }),
      ...(mac === null ? {} : { macAddress: mac }),
      offset: (page - 1) * PAGE_SIZE,
      limit: PAGE_SIZE + 1,
    };
    const found = await this.attempts.page(query);
    const nasNames = new Map((await this.nas.list()).map((nas) => [nas.id, nas.name]));
    const rows = found.slice(0, PAGE_SIZE).map((attempt) => ({
      createdAt: attempt.createdAt,
      accepted: attempt.outcome === 'accept',
      reasonKey: reasonKey(attempt.outcome, attempt.reason),
      username: attempt.username,
      userLink:
        attempt.userId !== null && attempt.venueId !== null
          ? `/admin/users/${encodeURIComponent(attempt.userId)}?venueId=${encodeURIComponent(attempt.venueId)}`
          : null,
      macAddress: attempt.macAddress,
      nas: attempt.nasClientId === null ? null : (nasNames.get(attempt.nasClientId) ?? null),
      venueId: attempt.venueId,
    }));
    await this.pages.render(request, response, 200, 'logins/index', {
      filters,
      venueChoices,
      restricted: operator.venueIds !== null,
      problem: null,
      rows,
      page,
      pageHref,
      hasNext: found.length > PAGE_SIZE && page < MAX_PAGE,
      emptyKey: filters.venueId !== '' || username !== '' || macText !== '' ? 'logins.emptySearch' : EMPTY_KEYS[show],
    });
  }
}
