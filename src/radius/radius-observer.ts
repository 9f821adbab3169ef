import type { LoginOutcome } from './entities/login-attempt.entity.js';
import type { ACCT_STATUS_TYPES, RejectReason } from './radius.rules.js';

/** An Acct-Status-Type this service records, or `other` for any other (dropped) packet. */
export type AccountingStatusType = keyof typeof ACCT_STATUS_TYPES | 'other';

/**
 * What the RADIUS back end reports as it works, for whoever watches it (the metrics module, which
 * sits above and provides this as RADIUS_OBSERVER). Every value is from a fixed set: never a user,
 * a username, a MAC or a NAS secret. Called after the work is done (committed), never inside it.
 */
export interface RadiusObserver {
  /** An authorize answered: accepted, or rejected for `reason`. */
  authorized(reason: RejectReason | 'accepted'): void;
  /** An accounting packet from a known NAS arrived (before it is recorded). */
  accountingPacket(statusType: AccountingStatusType): void;
  /** A post-auth record was written. */
  postAuthRecorded(outcome: LoginOutcome): void;
  /** The stale-session sweep ended `count` sessions. */
  staleSessionsEnded(count: number): void;
}

export const RADIUS_OBSERVER = Symbol('RADIUS_OBSERVER');
