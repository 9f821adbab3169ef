import type { FieldError } from '../common/errors/api-error.js';
import { PLAN_LIMITS, type PlanLimit, type PlanLimits } from './plan-limits.js';

/** The pure rules of service plans: what each limit accepts, how a change applies, where a plan may be used. */

export const PLAN_NAME_MAX_LENGTH = 100;

/** The numeric limits (every one but quotaPeriod). */
export type NumericPlanLimit = Exclude<PlanLimit, 'quotaPeriod'>;

/**
 * The accepted range of each numeric limit. The rates stop at the largest value the NASes'
 * 32-bit rate attributes carry; the seconds fit the int columns; a day has 86,400 seconds.
 */
export const LIMIT_RANGES: Record<NumericPlanLimit, { min: number; max: number; unit: string }> = {
  downloadRate: { min: 1000, max: 4_294_967_295, unit: 'bit/s' },
  uploadRate: { min: 1000, max: 4_294_967_295, unit: 'bit/s' },
  quotaBytes: { min: 1, max: 1_000_000_000_000_000, unit: 'bytes' },
  dailyTimeSeconds: { min: 60, max: 86_400, unit: 'seconds' },
  totalTimeSeconds: { min: 60, max: 2_147_483_647, unit: 'seconds' },
  idleTimeoutSeconds: { min: 60, max: 86_400, unit: 'seconds' },
  maxSessions: { min: 1, max: 1000, unit: 'sessions' },
  maxDevices: { min: 1, max: 1000, unit: 'devices' },
  interimIntervalSeconds: { min: 60, max: 86_400, unit: 'seconds' },
};

export const NUMERIC_PLAN_LIMITS = PLAN_LIMITS.filter((limit): limit is NumericPlanLimit => limit !== 'quotaPeriod');

/** A plan's fields besides its id and times. */
export interface PlanFields extends PlanLimits {
  name: string;
  venueIds: string[];
}

export type PlanField = keyof PlanFields;

/** What a PUT changes: a value sets the field, null clears a limit, absent leaves it. */
export type PlanChanges = Partial<PlanFields>;

export const NO_LIMITS: PlanLimits = {
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

/** Just the limits of `fields`. */
export function limitsOf(fields: PlanLimits): PlanLimits {
  return Object.fromEntries(PLAN_LIMITS.map((limit) => [limit, fields[limit]])) as unknown as PlanLimits;
}

const PLAN_FIELDS: readonly PlanField[] = ['name', 'venueIds', ...PLAN_LIMITS];

/** A quota is counted over a period: quotaBytes and quotaPeriod are set together or not at all. */
export function planErrors(fields: PlanLimits): FieldError[] {
  if (fields.quotaBytes !== null && fields.quotaPeriod === null) {
    return [{ field: 'quotaPeriod', message: 'quotaPeriod is required with quotaBytes (session, day or total)' }];
  }
  if (fields.quotaBytes === null && fields.quotaPeriod !== null) {
    return [{ field: 'quotaPeriod', message: 'quotaPeriod is only accepted with quotaBytes' }];
  }
  return [];
}

/** The fields after `changes`. */
export function appliedPlanChanges(current: PlanFields, changes: PlanChanges): PlanFields {
  const next: PlanFields = { ...current, venueIds: [...current.venueIds] };
  for (const field of PLAN_FIELDS) {
    const value = changes[field];
    if (value !== undefined) Object.assign(next, { [field]: value });
  }
  return next;
}

/** The fields whose value `next` changes from `current` (venueIds compared in order). */
export function changedPlanFields(current: PlanFields, next: PlanFields): PlanField[] {
  return PLAN_FIELDS.filter((field) =>
    field === 'venueIds' ? current.venueIds.join('\n') !== next.venueIds.join('\n') : current[field] !== next[field],
  );
}

/** Of `venueIds`, those the plan (offered in `planVenueIds`) is not offered in, each once. */
export function venuesNotOffered(planVenueIds: readonly string[], venueIds: readonly string[]): string[] {
  const offered = new Set(planVenueIds);
  return [...new Set(venueIds)].filter((venueId) => !offered.has(venueId));
}

/** The venues a change of the plan's venueIds takes away. */
export function removedVenues(before: readonly string[], after: readonly string[]): string[] {
  return venuesNotOffered(after, before);
}

/** What uses a plan: the users on it, the batches that gave it, the venues whose default plan it is. */
export interface PlanUses {
  users: number;
  batches: number;
  defaultOfVenues: string[];
}

/** Why a plan in use cannot be deleted, or null when nothing uses it. */
export function planInUseProblem(uses: PlanUses): string | null {
  const parts = [
    uses.users > 0 ? `${uses.users} ${uses.users === 1 ? 'user is' : 'users are'} on it` : null,
    uses.batches > 0 ? `${uses.batches} ${uses.batches === 1 ? 'batch gives' : 'batches give'} it` : null,
    uses.defaultOfVenues.length > 0 ? `it is the default plan of venue ${uses.defaultOfVenues.join(', ')}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? null : `the plan is in use: ${parts.join('; ')}`;
}
