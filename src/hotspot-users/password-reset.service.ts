import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service.js';
import { actorOf, CLI_ACTOR, type AuditActor, type AuditOrigin } from '../audit/audit.rules.js';
import type { Actor } from '../auth/actor.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { IdempotencyService, type IdempotentCall } from '../idempotency/idempotency.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { VenueContextDto } from './dto/hotspot-user-queries.dto.js';
import type { HotspotUserDto } from './dto/hotspot-user.response.js';
import { toHotspotUserDto } from './hotspot-user.mapper.js';
import { GENERATED_PASSWORD_RANDOM_BYTES } from './hotspot-user.rules.js';
import type { Versioned, WroteJobs } from './hotspot-users.service.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import {
  newGeneratedPassword,
  PASSWORD_RESET_ENDING,
  passwordResetRefusal,
  withNewPassword,
  type PasswordResetInput,
} from './password-reset.rules.js';
import { UserAccess, type Precondition } from './user-access.js';
import { UserSessionEndings } from './user-session-endings.js';

/** Who resets: the actor the venue and permission rules apply to, and who the audit row names. */
export interface PasswordResetCaller {
  actor: Actor;
  audit: AuditActor;
}

/** An API token or a console operator: its rules, its name in the audit trail. */
export function callerOf(actor: Actor): PasswordResetCaller {
  return { actor, audit: actorOf(actor) };
}

/** The command line (`hotspot user set-password`): every venue, audited as `cli`. */
export const COMMAND_LINE_CALLER: PasswordResetCaller = {
  actor: { kind: 'token', id: 'cli', name: 'hotspot', permissions: ['read', 'write', 'delete'], venueIds: null },
  audit: CLI_ACTOR,
};

export interface PasswordResetResult extends Versioned<HotspotUserDto>, WroteJobs {
  /** The generated password, for this one answer; null when the caller typed it. */
  password: string | null;
  /** Sessions ended (endSessions). */
  endedSessions: number;
}

/**
 * A hotspot user's password reset: the API's POST /hotspot-users/:id/password, the console's reset
 * page and `hotspot user set-password`. The new hash is made before the transaction; the hash, the
 * sessions ended (endSessions), their unauth job and the audit row commit together. RADIUS
 * authorize reads the stored hash at every login, and its verified-password cache (VerifiedPasswords)
 * keys its entries on that hash, so the new password counts at the next login on every instance.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly users: HotspotUsersRepository,
    private readonly access: UserAccess,
    private readonly endings: UserSessionEndings,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordHasher,
    private readonly idempotency: IdempotencyService,
    private readonly audit: AuditService,
  ) {}

  async reset(
    caller: PasswordResetCaller,
    id: string,
    context: VenueContextDto,
    input: PasswordResetInput,
    origin: AuditOrigin,
    precondition: Precondition = null,
    idempotency: IdempotentCall<PasswordResetResult> | null = null,
    claim: TransactionClaim<PasswordResetResult> | null = null,
  ): Promise<PasswordResetResult> {
    this.access.assertContextInScope(caller.actor, context);
    const generated =
      input.newPassword.kind === 'generated'
        ? newGeneratedPassword(() => randomBytes(GENERATED_PASSWORD_RANDOM_BYTES))
        : null;
    // Hashing is slow by design: it runs before the transaction, never inside it.
    const passwordHash = await this.passwords.hash(
      input.newPassword.kind === 'typed' ? input.newPassword.password : generated!,
    );
    const now = this.clock.now();
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.idempotency.reserve(em, idempotency);
      const stored = await this.access.findChangeable(em, caller.actor, id, context, precondition);
      const refusal = passwordResetRefusal(stored.user, input.newPassword);
      if (refusal?.kind === 'expired') throw ApiError.expiredUserNotEditable();
      if (refusal?.kind === 'invalid') throw ApiError.validation(refusal.errors);

      const { user, changes } = withNewPassword(stored.user, passwordHash, now);
      await this.users.update(em, user.id, changes);
      const { ended, unauthJobIds } = input.endSessions
        ? await this.endings.endSessions(em, user, PASSWORD_RESET_ENDING, now)
        : { ended: 0, unauthJobIds: [] };
      await this.audit.record(em, {
        actor: caller.audit,
        action: 'user.password-reset',
        target: { type: 'user', id: user.id },
        venueIds: stored.venueIds,
        origin,
      });
      const devices = await this.sessions.devicesOf(em, [user.id]);
      const result: PasswordResetResult = {
        data: toHotspotUserDto(user, stored.venueIds, devices),
        version: user.version,
        unauthJobIds,
        password: generated,
        endedSessions: ended,
      };
      // The answer kept for a replay is the controller's, which leaves the generated password out.
      await this.idempotency.complete(em, idempotency, result);
      await claim?.settle(em, result);
      return result;
    });
  }
}
