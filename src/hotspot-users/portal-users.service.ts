import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SYSTEM_ACTOR } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { LoginMethod, UserStatus } from './entities/hotspot-user.entity.js';
import { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { clashErrors, keysOf } from './hotspot-user.rules.js';
import { HotspotUserWriter } from './hotspot-user.writer.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
import { NO_USER_TEXT } from './user-text-fields.js';

/** The login methods of the users the guest portal makes (v1's API refuses them on creation). */
export type PortalLoginMethod = Extract<LoginMethod, 'sms' | 'social' | 'guest'>;

export interface PortalUserInput {
  id: string;
  venueId: string;
  loginMethod: PortalLoginMethod;
  name: string;
  username: string;
  phone: string | null;
  email: string | null;
  macAddress: string | null;
  planId: string | null;
  expiresAt: Date;
}

/** What the portal needs to know of a user it found. */
export interface PortalUserState {
  id: string;
  username: string | null;
  loginMethod: LoginMethod;
  status: UserStatus;
  passwordHash: string | null;
  expiresAt: Date | null;
}

/**
 * The users the guest portal (src/guest-access) makes and finds, written through the same writer as
 * v1's (venue rows, uniqueness keys, counters) and audited as the service's own changes. Every
 * method runs in the caller's transaction.
 */
@Injectable()
export class PortalUsersService {
  constructor(
    private readonly users: HotspotUsersRepository,
    private readonly writer: HotspotUserWriter,
    private readonly audit: AuditService,
  ) {}

  /**
   * A new user of one venue; false (nothing written) when another user of the venue holds its
   * username, e-mail or phone. A concurrent insert that takes a key first surfaces as KeyConflict
   * (the transaction must be retried).
   */
  async create(em: EntityManager, input: PortalUserInput, now: Date): Promise<boolean> {
    const user = Object.assign(new HotspotUserEntity(), {
      id: input.id,
      name: input.name,
      username: input.username,
      ...NO_USER_TEXT,
      email: input.email,
      phone: input.phone,
      macAddress: input.macAddress,
      loginMethod: input.loginMethod,
      status: 'active',
      passwordHash: null,
      expiresAt: input.expiresAt,
      validFor: null,
      firstLoginAt: null,
      metadata: {},
      createdAt: now,
      updatedAt: now,
      batchId: null,
      planId: input.planId,
      version: 1,
    } satisfies HotspotUserEntity);
    const keys = keysOf(user);
    const holders = await this.users.findKeyHolders(em, user.id, [input.venueId], keys);
    if (clashErrors([input.venueId], keys, holders).length > 0) return false;
    await this.writer.insert(em, user, [input.venueId]);
    await this.audit.record(em, {
      actor: SYSTEM_ACTOR,
      action: 'user.create',
      target: { type: 'user', id: user.id },
      venueIds: [input.venueId],
    });
    return true;
  }

  /** The user, locked for the caller's transaction; null when it is gone. */
  async lock(em: EntityManager, id: string): Promise<PortalUserState | null> {
    const record = await this.users.lockRecord(em, id);
    return record === null ? null : stateOf(record.user);
  }

  /** The user holding `username` in `venueId` (case-insensitive); null when none does. */
  async findByUsername(em: EntityManager, venueId: string, username: string): Promise<PortalUserState | null> {
    const id = await this.users.findIdByUsernameInVenue(em, venueId, username);
    if (id === null) return null;
    const record = await this.users.findRecord(em, id);
    return record === null ? null : stateOf(record.user);
  }

  /** A new sign-in of an active portal user moves its expiry to `expiresAt` (and its e-mail when given). */
  async renew(em: EntityManager, id: string, expiresAt: Date, now: Date): Promise<void> {
    const stored = await this.users.lockRecord(em, id);
    if (stored === null || stored.user.status !== 'active') return;
    const changes = { expiresAt, updatedAt: now, version: stored.user.version + 1 };
    const user = Object.assign(new HotspotUserEntity(), stored.user, changes);
    await this.writer.update(em, user, changes, stored, stored.venueIds);
    await this.audit.record(em, {
      actor: SYSTEM_ACTOR,
      action: 'user.update',
      target: { type: 'user', id },
      venueIds: stored.venueIds,
      changedFields: ['expiresAt'],
    });
  }
}

function stateOf(user: HotspotUserEntity): PortalUserState {
  return {
    id: user.id,
    username: user.username,
    loginMethod: user.loginMethod,
    status: user.status,
    passwordHash: user.passwordHash,
    expiresAt: user.expiresAt,
  };
}
