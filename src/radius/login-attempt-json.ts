import type { LoginAttemptEntity, LoginOutcome } from './entities/login-attempt.entity.js';

/** A login attempt as the command line prints it. */
export interface LoginAttemptJson {
  id: string;
  createdAt: string;
  outcome: LoginOutcome;
  /** Why a reject was refused (a RejectReason key); null for an accept, or when FreeRADIUS did not pass it on. */
  reason: string | null;
  venueId: string | null;
  nasClientId: string | null;
  /** The user of the NAS's venue the attempt names (by Class, MAC or username); null when none. */
  userId: string | null;
  /** The User-Name as the NAS sent it (cut to 253 characters). */
  username: string | null;
  macAddress: string | null;
}

export function toLoginAttemptJson(attempt: LoginAttemptEntity): LoginAttemptJson {
  return {
    id: attempt.id,
    createdAt: attempt.createdAt.toISOString(),
    outcome: attempt.outcome,
    reason: attempt.reason,
    venueId: attempt.venueId,
    nasClientId: attempt.nasClientId,
    userId: attempt.userId,
    username: attempt.username,
    macAddress: attempt.macAddress,
  };
}
