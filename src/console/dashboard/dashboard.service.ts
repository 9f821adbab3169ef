import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { UserStatus } from '../../hotspot-users/entities/hotspot-user.entity.js';
import { VenueFiguresService, type OpenJobCounts } from '../../hotspot-users/venue-figures.service.js';
import { Clock } from '../../common/clock.js';
import type { AppConfig } from '../../config/configuration.js';
import { NasService } from '../../nas/nas.service.js';
import type { LoginOutcome } from '../../radius/entities/login-attempt.entity.js';
import { LoginAttemptsService } from '../../radius/login-attempts.service.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { nasFreshness, type NasFreshness, type VenueView } from './dashboard.rules.js';

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

/** The dashboard's figures for a set of venues: each read through the service of the feature that owns it. */
@Injectable()
export class DashboardService {
  private readonly staleAfterMs: number;

  constructor(
    private readonly venues: VenueFiguresService,
    private readonly sessions: SessionsService,
    private readonly attempts: LoginAttemptsService,
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
    const [users, sessionsOnline, logins, jobs, last] = await Promise.all([
      this.venues.userTotals(view.venueIds),
      this.sessions.countActive(view.venueIds),
      this.attempts.outcomesSince(view, new Date(now.getTime() - LOGIN_WINDOW_MS)),
      this.venues.openJobs(view.venueIds),
      this.sessions.lastAccountingByNas(nases.map((nas) => nas.id)),
    ]);
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
  }

  /** The last accounting packet of each NAS of `ids`, with how it stands (the NAS settings list). */
  async nasAccounting(ids: readonly string[]): Promise<Map<string, { at: Date | null; freshness: NasFreshness }>> {
    const now = this.clock.now();
    const last = await this.sessions.lastAccountingByNas(ids);
    return new Map(
      ids.map((id) => {
        const at = last.get(id) ?? null;
        return [id, { at, freshness: nasFreshness(at, now, this.staleAfterMs) }];
      }),
    );
  }
}
