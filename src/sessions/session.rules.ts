import { DeviceEntity } from './entities/device.entity.js';
import { SessionEntity, type SessionStatus } from './entities/session.entity.js';

/** A session to record for a user the caller has allowed to start one; the MAC address is normalised. */
export interface SessionOpening {
  userId: string;
  venueId: string;
  macAddress: string;
  ipAddress?: string | null;
  nasId?: string | null;
}

/** The accounting columns of a session no NAS reported (the CLI's). */
export const NO_ACCOUNTING = {
  nasClientId: null,
  accountingUniqueId: null,
  acctSessionId: null,
  userName: null,
  calledStationId: null,
  callingStationId: null,
  inputOctets: null,
  outputOctets: null,
  sessionTime: null,
  lastAccountingAt: null,
  terminateCause: null,
  nasIpAddress: null,
  nasSourceIp: null,
  nasStoppedAt: null,
} satisfies Partial<SessionEntity>;

export function newSession(opening: SessionOpening, id: string, now: Date): SessionEntity {
  return Object.assign(new SessionEntity(), {
    id,
    userId: opening.userId,
    venueId: opening.venueId,
    macAddress: opening.macAddress,
    ipAddress: opening.ipAddress ?? null,
    nasId: opening.nasId ?? null,
    status: 'active',
    startedAt: now,
    endedAt: null,
    disconnectJobId: null,
    ...NO_ACCOUNTING,
  } satisfies Partial<SessionEntity>);
}

/** The device a user is first seen on. */
export function newDevice(userId: string, macAddress: string, id: string, now: Date): DeviceEntity {
  return Object.assign(new DeviceEntity(), {
    id,
    userId,
    macAddress,
    name: null,
    status: 'active',
    firstSeenAt: now,
    lastSeenAt: now,
  } satisfies Partial<DeviceEntity>);
}

/**
 * The session as the network side's stop leaves it, or null when it has ended already (stopped, or
 * ended by this service): a repeated stop changes nothing.
 */
export function stoppedSession(session: SessionEntity, now: Date): SessionEntity | null {
  if (session.status !== 'active') return null;
  return Object.assign(new SessionEntity(), session, {
    status: 'stopped',
    endedAt: now,
  } satisfies Partial<SessionEntity>);
}

/** Sessions this service ends (block, expiry, delete) become `expired`; `stopped` is the network side's own end. */
export const ENDED_BY_SERVICE = 'expired' satisfies SessionStatus;

export function endedByService(sessions: readonly SessionEntity[], now: Date): SessionEntity[] {
  return sessions.map((session) =>
    Object.assign(new SessionEntity(), session, {
      status: ENDED_BY_SERVICE,
      endedAt: now,
    } satisfies Partial<SessionEntity>),
  );
}
