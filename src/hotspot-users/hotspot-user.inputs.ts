import { parseIsoDateTimeWithZone } from '../common/validation/iso-date-time.js';
import { normaliseMac, uniqueVenueIds } from '../common/validation/normalise.js';
import type { CreatableLoginMethod, CreateHotspotUserDto } from './dto/create-hotspot-user.dto.js';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  type ListHotspotUsersQueryDto,
  type UserPageQueryDto,
} from './dto/hotspot-user-queries.dto.js';
import type { ListUserSessionsQueryDto } from './dto/hotspot-user-sessions.dto.js';
import type { UpdateHotspotUserDto } from './dto/update-hotspot-user.dto.js';
import type { JsonObject, UserStatus } from './entities/hotspot-user.entity.js';
import { searchPrefixes, type SearchPrefixes } from './user-search.rules.js';
import { sentUserText, userTextOf, type UserTextValues } from './user-text-fields.js';

/**
 * Validated requests as the service takes them, parsed once here: dates as Date, MAC addresses
 * normalised, venue ids without repeats, numbers as numbers. The DTOs have validated them already,
 * so a value that does not parse is a programming error, never bad input.
 */

export interface CreateUserInput extends UserTextValues {
  name: string;
  loginMethod: CreatableLoginMethod;
  venueIds: string[];
  username: string | null;
  password: string | null;
  macAddress: string | null;
  expiresAt: Date | null;
  validFor: number | null;
  planId: string | null;
  metadata: JsonObject;
}

/** Only the fields the PUT sent; `null` clears. */
export interface UpdateUserInput extends Partial<UserTextValues> {
  name?: string;
  /** `""` arrives as null: both clear the username. */
  username?: string | null;
  /** Normalised (AA:BB:CC:DD:EE:FF); null clears it. */
  macAddress?: string | null;
  venueIds?: string[];
  expiresAt?: Date | null;
  validFor?: number | null;
  planId?: string | null;
  status?: UserStatus;
  metadata?: JsonObject;
}

export interface ListUsersQuery {
  venueId?: string;
  status?: UserStatus;
  macAddress: string | null;
  /** `q` read as prefixes of each kind of key; null without `q`. */
  search: SearchPrefixes | null;
  /** Only this batch's accounts; null: any user. */
  batchId?: string | null;
  /** Leaves out every batch's accounts (vouchers); absent: the list holds them. */
  excludeBatches?: boolean;
  page: number;
  limit: number;
}

export function toCreateInput(dto: CreateHotspotUserDto): CreateUserInput {
  return {
    name: dto.name,
    loginMethod: dto.loginMethod,
    venueIds: uniqueVenueIds(dto.venueIds),
    username: dto.username ?? null,
    password: dto.password ?? null,
    ...userTextOf(dto),
    macAddress: dto.macAddress == null ? null : validated(normaliseMac(dto.macAddress), dto.macAddress),
    expiresAt: dto.expiresAt == null ? null : instant(dto.expiresAt),
    validFor: dto.validFor ?? null,
    planId: dto.planId ?? null,
    metadata: dto.metadata ?? {},
  };
}

export function toUpdateInput(dto: UpdateHotspotUserDto): UpdateUserInput {
  const input: UpdateUserInput = sentUserText(dto);
  if (dto.name !== undefined) input.name = dto.name;
  if (dto.username !== undefined) input.username = dto.username === '' ? null : dto.username;
  if (dto.macAddress !== undefined) {
    input.macAddress = dto.macAddress === null ? null : validated(normaliseMac(dto.macAddress), dto.macAddress);
  }
  if (dto.venueIds !== undefined) input.venueIds = uniqueVenueIds(dto.venueIds);
  if (dto.expiresAt !== undefined) input.expiresAt = dto.expiresAt === null ? null : instant(dto.expiresAt);
  if (dto.validFor !== undefined) input.validFor = dto.validFor;
  if (dto.planId !== undefined) input.planId = dto.planId;
  if (dto.status !== undefined) input.status = dto.status;
  if (dto.metadata !== undefined) input.metadata = dto.metadata;
  return input;
}

export function toListQuery(dto: ListHotspotUsersQueryDto): ListUsersQuery {
  return {
    venueId: dto.venueId,
    status: dto.status,
    macAddress: dto.macAddress === undefined ? null : validated(normaliseMac(dto.macAddress), dto.macAddress),
    search: dto.q === undefined ? null : searchPrefixes(dto.q),
    batchId: dto.batchId ?? null,
    excludeBatches: dto.batchAccounts === 'exclude',
    page: dto.page === undefined ? DEFAULT_PAGE : Number(dto.page),
    limit: dto.limit === undefined ? DEFAULT_LIMIT : Number(dto.limit),
  };
}

export function toSessionsQuery(dto: ListUserSessionsQueryDto): SessionsQuery {
  return { ...toUserPageQuery(dto), ended: dto.status === undefined ? null : dto.status === 'ended' };
}

export function toUserPageQuery(dto: UserPageQueryDto): UserPageQuery {
  return {
    venueId: dto.venueId,
    page: dto.page === undefined ? DEFAULT_PAGE : Number(dto.page),
    limit: dto.limit === undefined ? DEFAULT_LIMIT : Number(dto.limit),
  };
}

/** A page of what belongs to one user, with the venue context of a get. */
export interface UserPageQuery {
  venueId?: string;
  page: number;
  limit: number;
}

/** A user's sessions page: `ended` null lists every session. */
export interface SessionsQuery extends UserPageQuery {
  ended: boolean | null;
}

function instant(isoDateTime: string): Date {
  return validated(parseIsoDateTimeWithZone(isoDateTime), isoDateTime);
}

function validated<T>(parsed: T | null, raw: string): T {
  if (parsed === null) throw new Error(`unvalidated input: ${raw}`);
  return parsed;
}
