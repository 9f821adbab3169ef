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
   * list's page, each session with the username (or name) of its user, for a page that names them
   * (the console's Online now).
   */
  async listNamed(
    actor: Actor,
    query: SessionsQuery,
  ): Promise<{ data: Array<VenueSessionDto & { userName: string | null }>; pagination: PaginationDto }> {
    const { data, pagination } = await this.list(actor, query);
    const names = await this.database.run((em) =>
      this.users.findUserNames(
        em,
        data.map((session) => session.userId),
      ),
    );
    return { data: data.map((session) => ({ ...session, userName: names.get(session.userId) ?? null })), pagination };
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
