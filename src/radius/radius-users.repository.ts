import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { USERNAME_MAX_LENGTH, usernameKey } from '../common/validation/normalise.js';
import { dateTimeParameter, readDateTime } from '../database/columns.js';
import type { LoginMethod, UserStatus } from '../hotspot-users/entities/hotspot-user.entity.js';

/** What a login needs to know of a user, read in one query. */
export interface LoginUser {
  id: string;
  loginMethod: LoginMethod;
  passwordHash: string | null;
  status: UserStatus;
  expiresAt: Date | null;
  /** Seconds of validity from the first login; null: none. */
  validFor: number | null;
  firstLoginAt: Date | null;
  /** Whether the user belongs to the venue asked about. */
  inVenue: boolean;
  /** Its active sessions with an accounting update at or after `recentSince`; 0 when none was given. */
  recentSessions: number;
}

interface LoginRow {
  id: string;
  login_method: LoginMethod;
  password_hash: string | null;
  status: UserStatus;
  expires_at: Date | string | null;
  valid_for: number | string | null;
  first_login_at: Date | string | null;
  recent_sessions: number | string;
}

/** What the first login of a user with validFor reads again, locked, before it starts the validity. */
export interface ValidityStanding {
  status: UserStatus;
  expiresAt: Date | null;
  validFor: number | null;
  firstLoginAt: Date | null;
}

/**
 * The user lookups of the FreeRADIUS back end; every method runs on the caller's EntityManager.
 * They run on every login or accounting packet, so they are plain SQL (the same text on both
 * engines), without the query builder's work per call.
 */
@Injectable()
export class RadiusUsersRepository {
  /**
   * The user holding `username` (case-insensitive, like the uniqueness key) in `venueId`, with its
   * recent sessions counted when `recentSince` is given; else the one holding it in another venue
   * (for the message; its sessions are not counted). One query, two when the name is not in the
   * venue; null when no venue has it. Expired users have released their names and are not found.
   */
  async findLoginByUsername(
    em: EntityManager,
    username: string,
    venueId: string,
    recentSince: Date | null,
  ): Promise<LoginUser | null> {
    const key = usernameKey(username);
    if (key.length > USERNAME_MAX_LENGTH) return null;
    const [here] = await em.query<LoginRow[]>(
      `SELECT ${loginColumns(recentSince)} FROM hotspot_user_venues uv JOIN hotspot_users u ON u.id = uv.user_id
       WHERE uv.venue_id = ? AND uv.username_key = ?`,
      [...recentParameters(recentSince), venueId, key],
    );
    if (here !== undefined) return loginUser(here, true);
    const [elsewhere] = await em.query<LoginRow[]>(
      `SELECT ${loginColumns(null)} FROM hotspot_user_venues uv JOIN hotspot_users u ON u.id = uv.user_id
       WHERE uv.username_key = ? ORDER BY uv.user_id LIMIT 1`,
      [key],
    );
    return elsewhere === undefined ? null : loginUser(elsewhere, false);
  }

  /** The id of the user holding `username` (case-insensitive) in `venueId`; null when none does. One query. */
  async findIdByUsernameInVenue(em: EntityManager, username: string, venueId: string): Promise<string | null> {
    const key = usernameKey(username);
    if (key.length > USERNAME_MAX_LENGTH) return null;
    const [row] = await em.query<Array<{ user_id: string }>>(
      'SELECT user_id FROM hotspot_user_venues WHERE venue_id = ? AND username_key = ?',
      [venueId, key],
    );
    return row?.user_id ?? null;
  }

  /**
   * The guest of `venueId` registered with this MAC (its own, or one of its devices'): an active one
   * first, then the newest; with its recent sessions counted when `recentSince` is given. One query;
   * null when there is none.
   */
  async findGuestLoginByMac(
    em: EntityManager,
    venueId: string,
    mac: string,
    recentSince: Date | null,
  ): Promise<LoginUser | null> {
    const [row] = await em.query<LoginRow[]>(
      `SELECT ${loginColumns(recentSince)} FROM hotspot_users u
       JOIN hotspot_user_venues uv ON uv.user_id = u.id AND uv.venue_id = ?
       WHERE u.login_method = 'guest'
         AND (u.mac_address = ? OR EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.mac_address = ?))
       ORDER BY CASE WHEN u.status = 'active' THEN 0 ELSE 1 END, u.created_at DESC
       LIMIT 1`,
      [...recentParameters(recentSince), venueId, mac, mac],
    );
    return row === undefined ? null : loginUser(row, true);
  }

  /** `userId` when that user belongs to `venueId`; null otherwise. One query. */
  async findIdInVenue(em: EntityManager, userId: string, venueId: string): Promise<string | null> {
    const [row] = await em.query<Array<{ user_id: string }>>(
      'SELECT user_id FROM hotspot_user_venues WHERE venue_id = ? AND user_id = ?',
      [venueId, userId],
    );
    return row?.user_id ?? null;
  }

  /**
   * The user a MAC login is about, in one query: the guest findGuestLoginByMac finds, else the holder
   * of `username` (case-insensitive) in `venueId`, as authorize tries them; null when neither exists.
   */
  async findIdByMacOrUsername(
    em: EntityManager,
    venueId: string,
    mac: string,
    username: string,
  ): Promise<string | null> {
    const key = usernameKey(username);
    const [row] = await em.query<Array<{ id: string }>>(
      `SELECT id FROM (
         SELECT u.id AS id, 0 AS found_by, CASE WHEN u.status = 'active' THEN 0 ELSE 1 END AS standing, u.created_at AS created_at
         FROM hotspot_users u JOIN hotspot_user_venues uv ON uv.user_id = u.id AND uv.venue_id = ?
         WHERE u.login_method = 'guest'
           AND (u.mac_address = ? OR EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id AND d.mac_address = ?))
         UNION ALL
         SELECT user_id, 1, 0, NULL FROM hotspot_user_venues WHERE venue_id = ? AND username_key = ?
       ) found
       ORDER BY found_by, standing, created_at DESC
       LIMIT 1`,
      [venueId, mac, mac, venueId, key.length > USERNAME_MAX_LENGTH ? '' : key],
    );
    return row?.id ?? null;
  }

  /** The id of the guest findGuestLoginByMac finds; null when there is none. */
  async findGuestIdByMac(em: EntityManager, venueId: string, mac: string): Promise<string | null> {
    return (await this.findGuestLoginByMac(em, venueId, mac, null))?.id ?? null;
  }

  /**
   * The user's standing as a first login decides it, locked for the caller's transaction on MySQL
   * (`FOR UPDATE`; SQLite's transaction holds the write lock already): of two first logins at once,
   * the second reads what the first wrote. Null when the user is gone.
   */
  async lockValidityStanding(em: EntityManager, userId: string, rowLocks: boolean): Promise<ValidityStanding | null> {
    const [row] = await em.query<Array<Pick<LoginRow, 'status' | 'expires_at' | 'valid_for' | 'first_login_at'>>>(
      `SELECT u.status, u.expires_at, u.valid_for, u.first_login_at FROM hotspot_users u WHERE u.id = ?${
        rowLocks ? ' FOR UPDATE' : ''
      }`,
      [userId],
    );
    if (row === undefined) return null;
    return {
      status: row.status,
      expiresAt: readDateTime(row.expires_at),
      validFor: row.valid_for === null ? null : Number(row.valid_for),
      firstLoginAt: readDateTime(row.first_login_at),
    };
  }

  /** Starts the validity of a user with validFor (its first login): first_login_at and the expiresAt it gives; a change of the row, so its version (ETag) moves on. */
  async startValidity(em: EntityManager, userId: string, firstLoginAt: Date, expiresAt: Date): Promise<void> {
    await em.query(
      'UPDATE hotspot_users SET first_login_at = ?, expires_at = ?, updated_at = ?, version = version + 1 WHERE id = ?',
      [dateTimeParameter(firstLoginAt), dateTimeParameter(expiresAt), dateTimeParameter(firstLoginAt), userId],
    );
  }

  /** The user's venue ids (for the audit row of its first login). */
  async venueIdsOf(em: EntityManager, userId: string): Promise<string[]> {
    const rows = await em.query<Array<{ venue_id: string }>>(
      'SELECT venue_id FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
      [userId],
    );
    return rows.map((row) => row.venue_id);
  }
}

/** The columns of a user `u` a login reads; its recent sessions are counted when `recentSince` is given. */
function loginColumns(recentSince: Date | null): string {
  const recent =
    recentSince === null
      ? '0'
      : "(SELECT COUNT(*) FROM sessions s WHERE s.user_id = u.id AND s.status = 'active' AND s.last_accounting_at >= ?)";
  return `u.id, u.login_method, u.password_hash, u.status, u.expires_at, u.valid_for, u.first_login_at,
    ${recent} AS recent_sessions`;
}

function recentParameters(recentSince: Date | null): string[] {
  return recentSince === null ? [] : [dateTimeParameter(recentSince)];
}

function loginUser(row: LoginRow, inVenue: boolean): LoginUser {
  return {
    id: row.id,
    loginMethod: row.login_method,
    passwordHash: row.password_hash,
    status: row.status,
    expiresAt: readDateTime(row.expires_at),
    validFor: row.valid_for === null ? null : Number(row.valid_for),
    firstLoginAt: readDateTime(row.first_login_at),
    inVenue,
    recentSessions: Number(row.recent_sessions),
  };
}
