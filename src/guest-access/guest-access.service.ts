import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { DatabaseService } from '../database/database.service.js';
import { KeyConflict } from '../hotspot-users/hotspot-user.rules.js';
import { PortalUsersService } from '../hotspot-users/portal-users.service.js';
import { GuestIdentityEntity } from './entities/guest-identity.entity.js';
import { PortalPassEntity } from './entities/portal-pass.entity.js';
import { TermsAcceptanceEntity } from './entities/terms-acceptance.entity.js';
import { GuestAccessRepository } from './guest-access.repository.js';
import {
  LOGIN_METHOD_OF_KIND,
  PASS_LENGTH,
  PASS_TTL_MS,
  passFrom,
  passHash,
  portalExpiry,
  portalUsername,
  type GuestIdentityKey,
  type PortalWay,
} from './guest-access.rules.js';
import { VenuePortalsService, type VenuePortal } from './venue-portals.service.js';

/** The guest's device as the gateway named it (either may be unknown). */
export interface PortalDevice {
  mac: string | null;
  ip: string | null;
}

/**
 * A guest let in: the user the portal made or found, and the credentials the hand-over posts to the
 * gateway. `password` is the one-time pass in clear (or the voucher's own password), shown only in
 * the hand-over form, never stored or logged.
 */
export interface Admission {
  userId: string;
  username: string;
  password: string;
  expiresAt: Date | null;
}

export type AdmissionRefusal =
  /** The venue has no portal, or does not offer this way in. */
  | 'wayNotOffered'
  /** The venue has terms and the guest did not accept their current version. */
  | 'termsNotAccepted'
  /** No such voucher, or a wrong password: the same answer for both. */
  | 'invalidVoucher'
  /** A voucher or a portal user that was blocked by staff. */
  | 'blocked'
  /** A voucher whose time is over. */
  | 'expired'
  /** The terms way needs the device's MAC, and the gateway did not give it. */
  | 'noDevice';

export class AdmissionRefused extends Error {
  override name = 'AdmissionRefused';
  constructor(readonly reason: AdmissionRefusal) {
    super(`admission refused: ${reason}`);
  }
}

/** Tries of an admission that a concurrent one of the same identity beat to a unique key. */
const ADMISSION_TRIES = 3;

/**
 * The ways in of the guest portal. Each makes or finds a user of the venue (through hotspot-users'
 * PortalUsersService, so the v1 API sees it), records the terms acceptance when the venue has terms,
 * and returns what the hand-over posts to the gateway, all in one transaction. An identity (phone,
 * social subject, device MAC) is one user per venue: two admissions of it at once meet on the unique
 * key of guest_identities, and the loser's retry finds the winner's user.
 */
@Injectable()
export class GuestAccessService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly repository: GuestAccessRepository,
    private readonly portals: VenuePortalsService,
    private readonly users: PortalUsersService,
    private readonly passwords: PasswordHasher,
  ) {}

  /** A phone the caller verified (E.164, normalised by the caller): the venue's `sms` user of it. */
  admitVerifiedPhone(input: {
    venueId: string;
    phone: string;
    device: PortalDevice;
    termsVersion: string | null;
  }): Promise<Admission> {
    return this.admitIdentity(
      input.venueId,
      'sms',
      { kind: 'phone', issuer: '', subject: input.phone },
      { phone: input.phone, email: null, mac: null },
      input.device,
      input.termsVersion,
    );
  }

  /** A social sign-in (OpenID issuer and `sub`): the venue's `social` user of it, with the e-mail only if the venue keeps it. */
  async admitSocial(input: {
    venueId: string;
    issuer: string;
    subject: string;
    email: string | null;
    device: PortalDevice;
    termsVersion: string | null;
  }): Promise<Admission> {
    const portal = await this.portals.portal(input.venueId);
    const email = portal?.keepSocialEmail === true ? input.email : null;
    return this.admitIdentity(
      input.venueId,
      'social',
      { kind: 'social', issuer: input.issuer, subject: input.subject },
      { phone: null, email, mac: null },
      input.device,
      input.termsVersion,
    );
  }

  /** Terms only (click-through): the venue's `guest` user of the device's MAC, which the MAC login lets through too. */
  admitTerms(input: { venueId: string; device: PortalDevice; termsVersion: string | null }): Promise<Admission> {
    const mac = input.device.mac;
    if (mac === null) return Promise.reject(new AdmissionRefused('noDevice'));
    return this.admitIdentity(
      input.venueId,
      'terms',
      { kind: 'device', issuer: '', subject: mac },
      { phone: null, email: null, mac },
      input.device,
      input.termsVersion,
    );
  }

  /**
   * A voucher: a user of the venue with a username and password (a batch's account, or any such
   * user). The password is checked here (argon2id, the sign-in work class), so a guest gets an
   * answer before the gateway: a username nobody holds costs a verification too and answers the
   * same as a wrong password. The hand-over posts the voucher's own credentials.
   */
  async admitVoucher(input: {
    venueId: string;
    username: string;
    password: string;
    device: PortalDevice;
    termsVersion: string | null;
  }): Promise<Admission> {
    const portal = await this.portals.portal(input.venueId);
    assertOffered(portal, 'voucher', input.termsVersion);
    const user = await this.database.run((em) => this.users.findByUsername(em, input.venueId, input.username));
    const hash = user?.loginMethod === 'username_password' ? user.passwordHash : null;
    if (user === null || hash === null) {
      await this.passwords.verify('sign-in', await this.passwords.standIn(), input.password);
      throw new AdmissionRefused('invalidVoucher');
    }
    if (!(await this.passwords.verify('sign-in', hash, input.password))) throw new AdmissionRefused('invalidVoucher');
    if (user.status === 'blocked') throw new AdmissionRefused('blocked');
    const now = this.clock.now();
    if (user.status === 'expired' || (user.expiresAt !== null && user.expiresAt.getTime() <= now.getTime()))
      throw new AdmissionRefused('expired');
    const termsVersion = portal?.termsVersion ?? null;
    if (termsVersion !== null) {
      await this.database.transaction((em) =>
        this.recordAcceptance(em, input.venueId, user.id, termsVersion, input.device, now),
      );
    }
    return {
      userId: user.id,
      username: user.username ?? input.username,
      password: input.password,
      expiresAt: user.expiresAt,
    };
  }

  /**
   * Whether `password` is a live hand-over pass of the user (RADIUS authorize, for sms, social and
   * guest users): one indexed read through the caller's EntityManager.
   */
  isLivePass(em: EntityManager, userId: string, password: string, now: Date): Promise<boolean> {
    if (password.length !== PASS_LENGTH) return Promise.resolve(false);
    return this.repository.hasLivePass(em, userId, passHash(password), now);
  }

  /** Deletes up to `limit` passes expired for a while; returns how many (the sweep). */
  async sweepPasses(limit = 500): Promise<number> {
    const before = new Date(this.clock.now().getTime() - PASS_TTL_MS);
    return this.database.transaction(async (em) => {
      const ids = await this.repository.findExpiredPassIds(em, before, limit);
      await this.repository.deletePasses(em, ids);
      return ids.length;
    });
  }

  private async admitIdentity(
    venueId: string,
    way: PortalWay,
    key: GuestIdentityKey,
    profile: { phone: string | null; email: string | null; mac: string | null },
    device: PortalDevice,
    termsVersion: string | null,
  ): Promise<Admission> {
    const portal = await this.portals.portal(venueId);
    const offered = assertOffered(portal, way, termsVersion);
    // Made before the transaction, which may run more than once: the same pass whatever the try.
    const pass = passFrom(randomBytes(64));
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.database.transaction((em) => this.admitIn(em, venueId, offered, key, profile, device, pass));
      } catch (error) {
        // A concurrent admission of the same identity took a key first (the index, or the writer's
        // own check that ran after it committed): the next try finds its user.
        const raced =
          error instanceof KeyConflict ||
          isUniqueViolation(error) ||
          (error instanceof ApiError && error.getStatus() === 409);
        if (!raced || attempt >= ADMISSION_TRIES) throw error;
      }
    }
  }

  private async admitIn(
    em: EntityManager,
    venueId: string,
    portal: VenuePortal,
    key: GuestIdentityKey,
    profile: { phone: string | null; email: string | null; mac: string | null },
    device: PortalDevice,
    pass: string,
  ): Promise<Admission> {
    const now = this.clock.now();
    const expiresAt = portalExpiry(now, portal.validitySeconds);
    const identity = await this.repository.lockIdentity(em, venueId, key, this.database.supportsRowLocks);
    let user: { id: string; username: string } | null = null;
    if (identity !== null) {
      const found = await this.users.lock(em, identity.userId);
      if (found?.status === 'blocked') throw new AdmissionRefused('blocked');
      if (found?.status === 'active' && found.username !== null) {
        await this.users.renew(em, found.id, expiresAt, now);
        user = { id: found.id, username: found.username };
      }
    }
    if (user === null) user = await this.createUser(em, venueId, portal, key, profile, expiresAt, now);
    if (identity === null) {
      await this.repository.insertIdentity(
        em,
        Object.assign(new GuestIdentityEntity(), {
          id: newId(),
          venueId,
          userId: user.id,
          kind: key.kind,
          issuer: key.issuer,
          subject: key.subject,
          email: profile.email,
          createdAt: now,
          lastUsedAt: now,
        } satisfies GuestIdentityEntity),
      );
    } else {
      await this.repository.updateIdentity(em, identity.id, { userId: user.id, email: profile.email, lastUsedAt: now });
    }
    if (portal.termsVersion !== null)
      await this.recordAcceptance(em, venueId, user.id, portal.termsVersion, device, now);
    await this.repository.insertPass(
      em,
      Object.assign(new PortalPassEntity(), {
        id: newId(),
        userId: user.id,
        passHash: passHash(pass),
        expiresAt: new Date(now.getTime() + PASS_TTL_MS),
        createdAt: now,
      } satisfies PortalPassEntity),
    );
    return { userId: user.id, username: user.username, password: pass, expiresAt };
  }

  /**
   * A new user of the identity. Its username (portalUsername) may be another user's already (staff
   * made one with that name or phone): then a suffixed name without the phone or e-mail is used.
   */
  private async createUser(
    em: EntityManager,
    venueId: string,
    portal: VenuePortal,
    key: GuestIdentityKey,
    profile: { phone: string | null; email: string | null; mac: string | null },
    expiresAt: Date,
    now: Date,
  ): Promise<{ id: string; username: string }> {
    const id = newId();
    for (const suffix of [null, id.slice(-6)]) {
      const username = portalUsername(key, suffix);
      const created = await this.users.create(
        em,
        {
          id,
          venueId,
          loginMethod: LOGIN_METHOD_OF_KIND[key.kind],
          name: username,
          username,
          phone: suffix === null ? profile.phone : null,
          email: suffix === null ? profile.email : null,
          macAddress: profile.mac,
          planId: portal.planId,
          expiresAt,
        },
        now,
      );
      if (created) return { id, username };
    }
    throw new Error(`no free username for a portal user in venue ${venueId}`);
  }

  private async recordAcceptance(
    em: EntityManager,
    venueId: string,
    userId: string,
    termsVersion: string,
    device: PortalDevice,
    now: Date,
  ): Promise<void> {
    await this.repository.insertAcceptance(
      em,
      Object.assign(new TermsAcceptanceEntity(), {
        id: newId(),
        venueId,
        userId,
        termsVersion,
        macAddress: device.mac,
        ipAddress: device.ip,
        acceptedAt: now,
      } satisfies TermsAcceptanceEntity),
    );
  }
}

/** The portal when it offers `way` and, if it has terms, the guest accepted their current version. */
function assertOffered(portal: VenuePortal | null, way: PortalWay, termsVersion: string | null): VenuePortal {
  if (portal === null || !portal.ways.includes(way)) throw new AdmissionRefused('wayNotOffered');
  if (portal.termsVersion !== null && termsVersion !== portal.termsVersion)
    throw new AdmissionRefused('termsNotAccepted');
  return portal;
}
