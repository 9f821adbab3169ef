import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { DatabaseService } from '../database/database.service.js';
import { PlanVenueEntity } from './entities/plan-venue.entity.js';
import { PlanEntity } from './entities/plan.entity.js';
import { QUOTA_PERIODS, type EffectivePlan, type QuotaPeriod } from './plan-limits.js';
import type { PlanUses } from './plan.rules.js';

/** A plan with the venues that offer it, in their order. */
export interface PlanRecord {
  plan: PlanEntity;
  venueIds: string[];
}

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
  constructor(private readonly database: DatabaseService) {}

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

  async insert(em: EntityManager, plan: PlanEntity, venueIds: readonly string[]): Promise<void> {
    await em.insert(PlanEntity, plan);
    await this.insertVenues(em, plan.id, venueIds);
  }

  /**
   * The plan with its venues; `lock`: its row locked for the caller's transaction (`FOR UPDATE` on
   * MySQL; SQLite's transactions take the write lock up front), so that a change of the plan and
   * a use of it (a user put on it, which reads it in share mode) serialise.
   */
  async findById(
    em: EntityManager,
    id: string,
    lock: 'none' | 'update' | 'share' = 'none',
  ): Promise<PlanRecord | null> {
    const query = em.createQueryBuilder(PlanEntity, 'p').where('p.id = :id', { id });
    if (lock !== 'none' && this.database.supportsRowLocks) {
      query.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    }
    const plan = await query.getOne();
    if (plan === null) return null;
    const [record] = await this.withVenues(em, [plan]);
    return record;
  }

  /** The plans whose venues all lie in `scope` (null: every plan), offered in `venueId` when given; by name. */
  async findVisible(em: EntityManager, scope: readonly string[] | null, venueId: string | null): Promise<PlanRecord[]> {
    const query = em.createQueryBuilder(PlanEntity, 'p');
    if (venueId !== null) {
      query.andWhere(
        'EXISTS (SELECT 1 FROM plan_venues offered WHERE offered.plan_id = p.id AND offered.venue_id = :venueId)',
        { venueId },
      );
    }
    if (scope !== null) {
      query.andWhere(
        scope.length === 0
          ? '1 = 0'
          : 'NOT EXISTS (SELECT 1 FROM plan_venues outside WHERE outside.plan_id = p.id AND outside.venue_id NOT IN (:...scope))',
        { scope },
      );
    }
    const plans = await query.orderBy('p.name', 'ASC').addOrderBy('p.id', 'ASC').getMany();
    return this.withVenues(em, plans);
  }

  async update(em: EntityManager, id: string, changes: Partial<PlanEntity>): Promise<void> {
    await em.update(PlanEntity, { id }, changes);
  }

  async replaceVenues(em: EntityManager, id: string, venueIds: readonly string[]): Promise<void> {
    await em.delete(PlanVenueEntity, { planId: id });
    await this.insertVenues(em, id, venueIds);
  }

  /** Deletes the plan; its venue rows go with it (ON DELETE CASCADE). */
  async delete(em: EntityManager, id: string): Promise<void> {
    await em.delete(PlanVenueEntity, { planId: id });
    await em.delete(PlanEntity, { id });
  }

  /** What uses the plan: users on it, batches that gave it, venues whose default it is. One query. */
  async findUses(em: EntityManager, id: string): Promise<PlanUses> {
    const rows = await em.query<Array<{ kind: string; value: string; total: number | string }>>(
      `SELECT 'users' AS kind, '' AS value, COUNT(*) AS total FROM hotspot_users WHERE plan_id = ?
       UNION ALL SELECT 'batches', '', COUNT(*) FROM hotspot_user_batches WHERE plan_id = ?
       UNION ALL SELECT 'venue', id, 1 FROM venues WHERE default_plan_id = ?`,
      [id, id, id],
    );
    const total = (kind: string) => Number(rows.find((row) => row.kind === kind)?.total ?? 0);
    return {
      users: total('users'),
      batches: total('batches'),
      defaultOfVenues: rows
        .filter((row) => row.kind === 'venue')
        .map((row) => row.value)
        .sort(),
    };
  }

  /**
   * Of `venueIds`, those where the plan is in use: a user on it belongs to the venue, a batch for the
   * venue gave it, or it is the venue's default plan. One query.
   */
  async findVenuesUsing(em: EntityManager, id: string, venueIds: readonly string[]): Promise<string[]> {
    if (venueIds.length === 0) return [];
    const list = venueIds.map(() => '?').join(', ');
    const rows = await em.query<Array<{ venue_id: string }>>(
      `SELECT DISTINCT uv.venue_id FROM hotspot_users u JOIN hotspot_user_venues uv ON uv.user_id = u.id
         WHERE u.plan_id = ? AND uv.venue_id IN (${list})
       UNION SELECT b.venue_id FROM hotspot_user_batches b WHERE b.plan_id = ? AND b.venue_id IN (${list})
       UNION SELECT v.id FROM venues v WHERE v.default_plan_id = ? AND v.id IN (${list})`,
      [id, ...venueIds, id, ...venueIds, id, ...venueIds],
    );
    return [...new Set(rows.map((row) => row.venue_id))].sort();
  }

  private async insertVenues(em: EntityManager, planId: string, venueIds: readonly string[]): Promise<void> {
    if (venueIds.length === 0) return;
    await em.insert(
      PlanVenueEntity,
      venueIds.map((venueId, position) => ({ planId, venueId, position })),
    );
  }

  private async withVenues(em: EntityManager, plans: readonly PlanEntity[]): Promise<PlanRecord[]> {
    if (plans.length === 0) return [];
    const rows = await em.find(PlanVenueEntity, {
      where: { planId: In(plans.map((plan) => plan.id)) },
      order: { planId: 'ASC', position: 'ASC' },
    });
    return plans.map((plan) => ({
      plan,
      venueIds: rows.filter((row) => row.planId === plan.id).map((row) => row.venueId),
    }));
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
