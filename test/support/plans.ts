import { newId } from '../../src/common/ids.js';
import { PlanEntity } from '../../src/plans/entities/plan.entity.js';
import type { PlanLimits } from '../../src/plans/plan-limits.js';
import type { TestApp } from './test-app.js';

const NO_LIMITS: PlanLimits = {
  downloadRate: null,
  uploadRate: null,
  quotaBytes: null,
  quotaPeriod: null,
  dailyTimeSeconds: null,
  totalTimeSeconds: null,
  idleTimeoutSeconds: null,
  maxSessions: null,
  maxDevices: null,
  interimIntervalSeconds: null,
};

/** A plan with `limits` (the others none), stored as the plans API would store it; its id. */
export async function givenPlanRow(testApp: TestApp, limits: Partial<PlanLimits>): Promise<string> {
  const id = newId();
  const now = new Date();
  await testApp.dataSource
    .getRepository(PlanEntity)
    .insert({ id, name: `Plan ${id.slice(-6)}`, ...NO_LIMITS, ...limits, createdAt: now, updatedAt: now });
  return id;
}

/** Puts the user on the plan (null: none), as a PUT with `planId` would. */
export async function putOnPlan(testApp: TestApp, userId: string, planId: string | null): Promise<void> {
  await testApp.dataSource.query('UPDATE hotspot_users SET plan_id = ? WHERE id = ?', [planId, userId]);
}
