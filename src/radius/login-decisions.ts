import { Injectable } from '@nestjs/common';

/** How long authorize's finding is kept for the post-auth of the same login (FreeRADIUS calls it right after). */
const DECISION_TTL_MS = 10_000;
/** Logins remembered at once; the oldest go first. */
const MAX_DECISIONS = 20_000;

interface Decision {
  userId: string;
  until: number;
}

/**
 * The user of the venue that authorize found for a login, for its post-auth: that call then records
 * the attempt without looking the user up again. A login that found no such user forgets what an
 * earlier one found (the username may since have been released), so its post-auth looks up as before. Keyed by the NAS, the User-Name and the
 * Calling-Station-Id as FreeRADIUS sent them; kept 10 s in this process's memory, so a post-auth that
 * reaches another instance, or comes later, looks the user up as before.
 */
@Injectable()
export class LoginDecisions {
  private readonly decisions = new Map<string, Decision>();

  remember(nasId: string, username: string, callingStationId: string | null, userId: string, now: number): void {
    const key = keyOf(nasId, username, callingStationId);
    this.decisions.delete(key);
    if (this.decisions.size >= MAX_DECISIONS) this.decisions.delete(this.decisions.keys().next().value as string);
    this.decisions.set(key, { userId, until: now + DECISION_TTL_MS });
  }

  forget(nasId: string, username: string, callingStationId: string | null): void {
    this.decisions.delete(keyOf(nasId, username, callingStationId));
  }

  /** The user authorize found; undefined when this process does not know one for the login. */
  userOf(nasId: string, username: string, callingStationId: string | null, now: number): string | undefined {
    const key = keyOf(nasId, username, callingStationId);
    const decision = this.decisions.get(key);
    if (decision === undefined) return undefined;
    if (decision.until <= now) {
      this.decisions.delete(key);
      return undefined;
    }
    return decision.userId;
  }
}

/** Unambiguous whatever the text holds (a User-Name is what the guest typed). */
function keyOf(nasId: string, username: string, callingStationId: string | null): string {
  return JSON.stringify([nasId, username, callingStationId]);
}
