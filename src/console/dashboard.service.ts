import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { UserStatus } from '../hotspot-users/entities/hotspot-user.entity.js';
import { UnauthJobCountsRepository, type OpenJobCounts } from '../hotspot-users/unauth-job-counts.repository.js';
import { VenueCountsRepository } from '../hotspot-users/venue-counts.repository.js';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { NasService } from '../nas/nas.service.js';
import type { LoginOutcome } from '../radius/entities/login-attempt.entity.js';
import { LoginAttemptsRepository } from '../radius/login-attempts.repository.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { nasFreshness, type NasFreshness, type VenueView } from './venue-ops.rules.js';

/** The window of the dashboard's login counts. */
const LOGIN_WINDOW_MS = 3_600_000;

export interface DashboardNas {
  id: string;
  name: string;
  venueId: string;
  lastAccountingAt: Date | null;
  freshness: NasFreshness;
}

export interface Dashboard {
  users: Record<UserStatus, number>;
  sessionsOnline: number;
  logins: Record<LoginOutcome, number>;
  jobs: OpenJobCounts;
  nases: DashboardNas[];
  staleAfterMinutes: number;
}

/** The dashboard's figures for a set of venues: each one indexed query of the feature that owns it. */
@Injectable()
export class DashboardService {
  private readonly staleAfterMs: number;

  constructor(
    private readonly database: DatabaseService,
    private readonly counts: VenueCountsRepository,
    private readonly sessions: SessionsRepository,
    private readonly attempts: LoginAttemptsRepository,
    private readonly jobs: UnauthJobCountsRepository,
    private readonly nas: NasService,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.staleAfterMs = config.get('radius', { infer: true }).staleAfterMs;
  }

  async figures(view: VenueView): Promise<Dashboard> {
    const now = this.clock.now();
    const nases = (await this.nas.list()).filter(
      (nas) => view.venueIds === null || view.venueIds.includes(nas.venueId),
    );
    return this.database.run(async (em) => {
      const users = await this.counts.statusTotals(em, view.venueIds);
      const sessionsOnline = await this.sessions.countActive(em, view.venueIds);
      const logins = await this.attempts.outcomesSince(em, view, new Date(now.getTime() - LOGIN_WINDOW_MS));
      const jobs = await this.jobs.countOpen(em, view.venueIds);
      const last = await this.sessions.lastAccountingByNas(
        em,
        nases.map((nas) => nas.id),
      );
      return {
        users,
        sessionsOnline,
        logins,
        jobs,
        nases: nases.map((nas) => {
          const lastAccountingAt = last.get(nas.id) ?? null;
          return {
            id: nas.id,
            name: nas.name,
            venueId: nas.venueId,
            lastAccountingAt,
            freshness: nasFreshness(lastAccountingAt, now, this.staleAfterMs),
          };
        }),
        staleAfterMinutes: Math.max(1, Math.round(this.staleAfterMs / 60_000)),
      };
    });
  }

  /** The last accounting packet of each NAS of `ids`, with how it stands (the NAS settings list). */
  async nasAccounting(ids: readonly string[]): Promise<Map<string, { at: Date | null; freshness: NasFreshness }>> {
    const now = this.clock.now();
    const last = await this.database.run((em) => this.sessions.lastAccountingByNas(em, ids));
    return new Map(
      ids.map((id) => {
        const at = last.get(id) ?? null;
        return [id, { at, freshness: nasFreshness(at, now, this.staleAfterMs) }];
      }),
    );
  }
}
