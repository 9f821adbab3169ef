import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { QUOTA_PERIODS, type EffectivePlan, type QuotaPeriod } from './plan-limits.js';

interface PlanLimitsRow {
  id: string;
  name: string;
  download_rate: number | string | null;
  upload_rate: number | string | null;
  quota_bytes: number | string | null;
  quota_period: string | null;
  daily_time_seconds: number | string | null;
  total_time_seconds: number | string | null;
  idle_timeout_seconds: number | string | null;
  max_sessions: number | string | null;
  max_devices: number | string | null;
  interim_interval_seconds: number | string | null;
}

const LIMIT_COLUMNS = `p.id, p.name, p.download_rate, p.upload_rate, p.quota_bytes, p.quota_period,
  p.daily_time_seconds, p.total_time_seconds, p.idle_timeout_seconds, p.max_sessions, p.max_devices,
  p.interim_interval_seconds`;

/** The SQL of service plans; every method runs on the caller's EntityManager. */
@Injectable()
export class PlansRepository {
  /**
   * The plan `planId` names, else the default plan of `venueId` (null: no venue), else none. One
   * query, plain SQL: RADIUS runs it on every accepted login.
   */
  async findEffective(em: EntityManager, planId: string | null, venueId: string | null): Promise<EffectivePlan | null> {
    const [row] = await em.query<PlanLimitsRow[]>(
      `SELECT ${LIMIT_COLUMNS} FROM plans p
       WHERE p.id = COALESCE(?, (SELECT v.default_plan_id FROM venues v WHERE v.id = ?))`,
      [planId, venueId],
    );
    return row === undefined ? null : effectivePlanOf(row);
  }
}

function numberOrNull(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function effectivePlanOf(row: PlanLimitsRow): EffectivePlan {
  return {
    id: row.id,
    name: row.name,
    downloadRate: numberOrNull(row.download_rate),
    uploadRate: numberOrNull(row.upload_rate),
    quotaBytes: numberOrNull(row.quota_bytes),
    quotaPeriod: (QUOTA_PERIODS as readonly string[]).includes(row.quota_period ?? '')
      ? (row.quota_period as QuotaPeriod)
      : null,
    dailyTimeSeconds: numberOrNull(row.daily_time_seconds),
    totalTimeSeconds: numberOrNull(row.total_time_seconds),
    idleTimeoutSeconds: numberOrNull(row.idle_timeout_seconds),
    maxSessions: numberOrNull(row.max_sessions),
    maxDevices: numberOrNull(row.max_devices),
    interimIntervalSeconds: numberOrNull(row.interim_interval_seconds),
  };
}
