import type { UserStatus } from './entities/hotspot-user.entity.js';
import { hasLapsed } from './hotspot-user.rules.js';

/** What the rule needs to know of a user, read while its row is locked. */
export interface SessionStartCandidate {
  id: string;
  status: UserStatus;
  expiresAt: Date | null;
  venueIds: readonly string[];
}

export type SessionStartRefusal = 'no-such-user' | 'user-not-active' | 'not-in-venue';

export type SessionStartDecision<User extends SessionStartCandidate> =
  { allowed: true; user: User } | { allowed: false; reason: SessionStartRefusal; message: string };

/**
 * Whether a session may start for `userId` in `venueId` at `now`: only for an existing, active user
 * in one of its venues. `user` is null when no such user exists (deleted, or never created). A user
 * whose expiresAt has passed is refused as expired, whether or not the sweep has reached it yet.
 */
export function decideSessionStart<User extends SessionStartCandidate>(
  userId: string,
  user: User | null,
  venueId: string,
  now: Date,
): SessionStartDecision<User> {
  if (user === null) return { allowed: false, reason: 'no-such-user', message: `no such user ${userId}` };
  const status: UserStatus = hasLapsed(user.expiresAt, now) ? 'expired' : user.status;
  if (status !== 'active')
    return { allowed: false, reason: 'user-not-active', message: `user ${user.id} is ${status}` };
  if (!user.venueIds.includes(venueId)) {
    return { allowed: false, reason: 'not-in-venue', message: `user ${user.id} does not belong to venue ${venueId}` };
  }
  return { allowed: true, user };
}
