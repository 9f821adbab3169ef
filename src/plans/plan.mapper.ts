import type { PlanDto } from './dto/plan.response.js';
import type { PlanRecord } from './plans.repository.js';

/** The one mapping from stored rows to the API's plan. */
export function toPlanDto({ plan, venueIds }: PlanRecord): PlanDto {
  return {
    _id: plan.id,
    name: plan.name,
    venueIds: [...venueIds],
    downloadRate: plan.downloadRate,
    uploadRate: plan.uploadRate,
    quotaBytes: plan.quotaBytes,
    quotaPeriod: plan.quotaPeriod,
    dailyTimeSeconds: plan.dailyTimeSeconds,
    totalTimeSeconds: plan.totalTimeSeconds,
    idleTimeoutSeconds: plan.idleTimeoutSeconds,
    maxSessions: plan.maxSessions,
    maxDevices: plan.maxDevices,
    interimIntervalSeconds: plan.interimIntervalSeconds,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}
