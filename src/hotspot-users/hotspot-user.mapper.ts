import type { DeviceEntity } from '../sessions/entities/device.entity.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import type { UserSessionDto } from './dto/hotspot-user-sessions.dto.js';
import type { VenueSessionDto } from './dto/venue-sessions.dto.js';
import type { DeviceDto, HotspotUserDto } from './dto/hotspot-user.response.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { userTextOf } from './user-text-fields.js';

/** The one mapping from stored rows to the API's HotspotUser: nothing else reaches a response. */
export function toHotspotUserDto(
  user: HotspotUserEntity,
  venueIds: readonly string[],
  devices: readonly DeviceEntity[],
): HotspotUserDto {
  return {
    _id: user.id,
    name: user.name,
    username: user.username,
    ...userTextOf(user),
    macAddress: user.macAddress,
    loginMethod: user.loginMethod,
    venueIds: [...venueIds],
    status: user.status,
    expiresAt: user.expiresAt?.toISOString() ?? null,
    validFor: user.validFor,
    firstLoginAt: user.firstLoginAt?.toISOString() ?? null,
    devices: [...devices].sort(newestSeenFirst).map(toDeviceDto),
    metadata: user.metadata,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    batchId: user.batchId,
    planId: user.planId,
  };
}

function toDeviceDto(device: DeviceEntity): DeviceDto {
  return {
    macAddress: device.macAddress,
    name: device.name,
    status: device.status,
    firstSeenAt: device.firstSeenAt.toISOString(),
    lastSeenAt: device.lastSeenAt.toISOString(),
  };
}

function newestSeenFirst(a: DeviceEntity, b: DeviceEntity): number {
  return b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || (a.macAddress < b.macAddress ? -1 : 1);
}

/** A user's session as the API shows it. MAC addresses the NAS did not report as one are null. */
export function toUserSessionDto(session: SessionEntity): UserSessionDto {
  return {
    id: session.id,
    venueId: session.venueId,
    macAddress: session.macAddress === '' ? null : session.macAddress,
    ipAddress: session.ipAddress,
    nas: session.nasId,
    status: session.status,
    startedAt: session.startedAt.toISOString(),
    endedAt: session.endedAt?.toISOString() ?? null,
    lastUpdateAt: session.lastAccountingAt?.toISOString() ?? null,
    sessionTime: session.sessionTime,
    inputOctets: counter(session.inputOctets),
    outputOctets: counter(session.outputOctets),
    terminateCause: session.terminateCause,
  };
}

/** A session in a venue's list: a user's session, with its user and whether it is stale. */
export function toVenueSessionDto(session: SessionEntity, stale: boolean): VenueSessionDto {
  return { ...toUserSessionDto(session), userId: session.userId, stale };
}

/** A 64-bit counter: a number while it is exact, its decimal digits beyond 2⁵³. */
export function counter(value: string | null): number | string | null {
  if (value === null) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}
