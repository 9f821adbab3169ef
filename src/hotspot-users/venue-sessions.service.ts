import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { Clock } from '../common/clock.js';
import { pageWindow, paginationOf } from '../common/pagination.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { isStale } from '../sessions/session-staleness.rules.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { VenueSessionDto } from './dto/venue-sessions.dto.js';
import type { PaginationDto } from './dto/hotspot-user.response.js';
import { toVenueSessionDto } from './hotspot-user.mapper.js';
import type { SessionsQuery } from './hotspot-user.inputs.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
import type { SearchPrefixes } from './user-search.rules.js';

/** A session Online now lists: as GET /sessions answers it, with its user's name and, while its Disconnect is unconfirmed, the job. */
export type OnlineSession = VenueSessionDto & { userName: string | null; disconnectJobId: string | null };

/** The sessions of a venue (GET /sessions), with the venue rules of the users list. */
@Injectable()
export class VenueSessionsService {
  private readonly staleAfterMs: number;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly venueScope: VenueScopeService,
    private readonly sessions: SessionsService,
    private readonly users: HotspotUsersRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    this.staleAfterMs = config.get('radius', { infer: true }).staleAfterMs;
  }

  /**
   * What the console's Online now lists in a venue (the venue rules of list): its active sessions and
   * those ended here whose Disconnect the NAS has not confirmed yet, newest first, each with the
   * username (or name) of its user and, for the latter, the unauth job it waits on; and how many of
   * each there are; with a search (`q`, read as the users list reads it), only the sessions of the
   * users it finds. The v1 API's sessions are unchanged by it: those sessions are ended there.
   */
  async listOnline(
    actor: Actor,
    query: { venueId?: string; page: number; limit: number; search?: SearchPrefixes | null },
  ): Promise<{
    data: Array<OnlineSession>;
    pagination: PaginationDto;
    active: number;
    disconnecting: number;
  }> {
    const venueId = this.venueScope.resolveListVenue(actor, query.venueId);
    const now = this.clock.now();
    const search = query.search ?? null;
    // With a search, the users it finds online first (at most those online), then their sessions.
    const { active, disconnecting, sessions } = await this.database.run(async (em) =>
      this.sessions.onlinePageOfVenue(
        em,
        venueId,
        pageWindow(query),
        search === null ? null : await this.users.findOnlineMatches(em, venueId, search),
      ),
    );
    const names = await this.database.run((em) =>
      this.users.findUserNames(
        em,
        sessions.map((session) => session.userId),
      ),
    );
    return {
      data: sessions.map((session) => ({
        ...toVenueSessionDto(session, isStale(session, now, this.staleAfterMs)),
        userName: names.get(session.userId) ?? null,
        disconnectJobId: session.status === 'active' ? null : session.disconnectJobId,
      })),
      pagination: paginationOf(query, active + disconnecting),
      active,
      disconnecting,
    };
  }

  /** One page of the venue's sessions, newest first; stale is judged at the time of the request. */
  async list(actor: Actor, query: SessionsQuery): Promise<{ data: VenueSessionDto[]; pagination: PaginationDto }> {
    const venueId = this.venueScope.resolveListVenue(actor, query.venueId);
    const now = this.clock.now();
    const { total, sessions } = await this.database.run((em) =>
      this.sessions.pageOfVenue(em, venueId, query.ended, pageWindow(query)),
    );
    return {
      data: sessions.map((session) => toVenueSessionDto(session, isStale(session, now, this.staleAfterMs))),
      pagination: paginationOf(query, total),
    };
  }
}
