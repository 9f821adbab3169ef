import type { SessionEntity, SessionStatus } from './entities/session.entity.js';

/** A session as the command line prints it. */
export interface SessionJson {
  id: string;
  userId: string;
  venueId: string;
  macAddress: string;
  ipAddress: string | null;
  nasId: string | null;
  status: SessionStatus;
  startedAt: string;
  endedAt: string | null;
}

export function toSessionJson(session: SessionEntity): SessionJson {
  return {
    id: session.id,
    userId: session.userId,
    venueId: session.venueId,
    macAddress: session.macAddress,
    ipAddress: session.ipAddress,
    nasId: session.nasId,
    status: session.status,
    startedAt: session.startedAt.toISOString(),
    endedAt: session.endedAt?.toISOString() ?? null,
  };
}
