import { AuditService } from '../audit/audit.service.js';
import { CLI_ACTOR, SYSTEM_ACTOR, type AuditAction, type AuditActor } from '../audit/audit.rules.js';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { assertGrantable, type Rights } from '../auth/grant.rules.js';
import type { Permission } from '../auth/permissions.js';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { OperatorEntity } from './entities/operator.entity.js';
import {
  oneTimePassword,
  OPERATOR_PERMISSIONS,
  ONE_TIME_PASSWORD_RANDOM_BYTES,
  operatorEmail,
  operatorEmailKey,
  operatorName,
  operatorPermissions,
  operatorVenueIds,
  changedOperatorFields,
  toOperatorView,
  type Checked,
  type OperatorView,
} from './operator-rules.js';
import { OperatorsRepository, type OperatorChanges } from './operators.repository.js';
import { normalisedPassword, passwordProblem } from './password-policy.js';
import { resealTotpSeed } from './totp-seal.js';

/** The name of the operator a first start creates. */
export const FIRST_ADMIN_NAME = 'Administrator';

export interface CreateOperatorInput {
  email: string;
  name: string;
  permissions: Permission[];
  /** null: every venue. */
  venueIds: string[] | null;
  admin: boolean;
  /** Omitted: a one-time password is generated, to be changed at the first sign-in. */
  password?: string;
}

/** What `operator set` changes: its name and rights; absent fields stay. */
export type OperatorRightsChanges = Partial<Pick<CreateOperatorInput, 'name' | 'permissions' | 'venueIds' | 'admin'>>;

export interface OperatorRightsChange {
  operator: OperatorView;
  /** The fields that took a new value; none: nothing was written. */
  changedFields: string[];
}

export interface CreatedOperator {
  operator: OperatorView;
  /** The generated password, shown once and never stored in clear; null when one was given. */
  oneTimePassword: string | null;
}

export interface OperatorStatusChange {
  operator: OperatorView;
  /** False when the operator had that status already (nothing changed). */
  changed: boolean;
}

export interface OperatorPasswordReset {
  operator: OperatorView;
  /** Shown once; the next sign-in must change it. */
  oneTimePassword: string;
}

export interface OperatorTotpReset {
  operator: OperatorView;
  /** Whether the operator had enrolled a TOTP authenticator. */
  wasEnrolled: boolean;
}

/** An input the operators refuse; `field` names the input, the message never holds a password. */
export class OperatorValidationError extends Error {
  override name = 'OperatorValidationError';
  constructor(
    readonly field: keyof CreateOperatorInput,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

export class OperatorEmailTakenError extends Error {
  override name = 'OperatorEmailTakenError';
  constructor(readonly email: string) {
    super(`An operator with the email ${email} exists already (emails are compared ignoring case).`);
  }
}

/**
 * A console operator would disable or demote the last active administrator: nobody could manage the
 * settings any more. The command line may (it is the way back in: it can enable or create one).
 */
export class LastActiveAdminError extends Error {
  override name = 'LastActiveAdminError';
  constructor() {
    super('This would leave no active administrator.');
  }
}

/** A value given to find an operator is one operator's id (`byIdEmail`) and another's email. */
export class OperatorAmbiguousError extends Error {
  override name = 'OperatorAmbiguousError';
  constructor(
    readonly idOrEmail: string,
    readonly byIdEmail: string,
  ) {
    super('The value is the id of one operator and the email of another.');
  }
}

/**
 * The operator use cases, one transaction each. Every change of password, status or second factor
 * moves rights_version on, which ends the operator's console sessions made before it.
 */
@Injectable()
export class OperatorsService {
  private readonly oneTimePasswordLifetimeMs: number;

  constructor(
    private readonly database: DatabaseService,
    private readonly operators: OperatorsRepository,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.oneTimePasswordLifetimeMs = config.get('console', { infer: true }).oneTimePasswordLifetimeMs;
  }

  async create(
    input: CreateOperatorInput,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<CreatedOperator> | null = null,
  ): Promise<CreatedOperator> {
    // An administrator gives at most its own rights (GrantRefusedError); the command line anything.
    assertGrantable(grantor, input);
    const operator = this.newOperator(input);
    let generated: string | null = null;
    if (input.password === undefined) {
      generated = newOneTimePassword();
    } else {
      const problem = passwordProblem(input.password, operator);
      if (problem !== null) throw new OperatorValidationError('password', problem);
    }
    operator.mustChangePassword = generated !== null;
    operator.oneTimePasswordExpiresAt = generated === null ? null : this.oneTimePasswordExpiry(operator.createdAt);
    // Hashing is slow by design: it runs before the transaction, never inside it.
    operator.passwordHash = await this.passwords.hash(generated ?? normalisedPassword(input.password!));
    const created = { operator: toOperatorView(operator), oneTimePassword: generated };
    try {
      await this.claimed(claim, async (em) => {
        // Found here or, when another create commits in between, by the unique index.
        if ((await this.operators.findByEmailKey(em, operator.emailKey)) !== null) {
          throw new OperatorEmailTakenError(operator.email);
        }
        await this.operators.insert(em, operator);
        await this.record(em, actor, 'operator.create', operator);
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new OperatorEmailTakenError(operator.email);
      throw error;
    }
    return created;
  }

  /**
   * The first administrator of an installation: admin, every permission, every venue, a one-time
   * password. Null when an operator exists already (made by anyone, at any time).
   */
  async createFirstAdmin(email: string): Promise<CreatedOperator | null> {
    if ((await this.count()) > 0) return null;
    const operator = this.newOperator({
      email,
      name: FIRST_ADMIN_NAME,
      permissions: [...OPERATOR_PERMISSIONS],
      venueIds: null,
      admin: true,
    });
    const password = newOneTimePassword();
    operator.mustChangePassword = true;
    operator.oneTimePasswordExpiresAt = this.oneTimePasswordExpiry(operator.createdAt);
    operator.passwordHash = await this.passwords.hash(password);
    try {
      const inserted = await this.database.transaction(async (em) => {
        if ((await this.operators.count(em)) > 0) return false;
        await this.operators.insert(em, operator);
        await this.record(em, SYSTEM_ACTOR, 'operator.create', operator);
        return true;
      });
      return inserted ? { operator: toOperatorView(operator), oneTimePassword: password } : null;
    } catch (error) {
      // Another instance made it at the same moment.
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /**
   * Seals every operator's TOTP seed anew under `to` (null: in clear), inside the caller's
   * transaction; returns how many. NasSecretUnavailableError when `from` cannot open one.
   */
  async resealTotpSeeds(em: EntityManager, from: Buffer | null, to: Buffer | null): Promise<number> {
    const operators = await this.operators.listTotpSecretsForUpdate(em, this.database.supportsRowLocks);
    for (const operator of operators) {
      await this.operators.replaceTotpSecret(
        em,
        operator.id,
        resealTotpSeed(operator.totpSecret, operator.id, from, to),
      );
    }
    return operators.length;
  }

  async count(): Promise<number> {
    return this.database.run((em) => this.operators.count(em));
  }

  /** Every operator, oldest first. */
  async list(): Promise<OperatorView[]> {
    const operators = await this.database.run((em) => this.operators.listOldestFirst(em));
    return operators.map(toOperatorView);
  }

  /** Null when no operator has that id or email. */
  async disable(
    idOrEmail: string,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<OperatorStatusChange | null> | null = null,
  ): Promise<OperatorStatusChange | null> {
    return this.claimed(claim, async (em) => {
      const operator = await this.findByIdOrEmail(em, idOrEmail);
      if (operator === null) return null;
      assertGrantable(grantor, operator);
      if (operator.status === 'disabled') return { operator: toOperatorView(operator), changed: false };
      if (operator.admin) await this.keepAnActiveAdmin(em, operator, actor);
      const changed = await this.change(em, operator, { status: 'disabled' });
      await this.record(em, actor, 'operator.disable', operator);
      return { operator: changed, changed: true };
    });
  }

  /** Null when no operator has that id or email. */
  async enable(
    idOrEmail: string,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<OperatorStatusChange | null> | null = null,
  ): Promise<OperatorStatusChange | null> {
    return this.claimed(claim, async (em) => {
      const operator = await this.findByIdOrEmail(em, idOrEmail);
      if (operator === null) return null;
      assertGrantable(grantor, operator);
      if (operator.status === 'active') return { operator: toOperatorView(operator), changed: false };
      const changed = await this.change(em, operator, { status: 'active' });
      await this.record(em, actor, 'operator.enable', operator);
      return { operator: changed, changed: true };
    });
  }

  /** A new one-time password that the next sign-in must change. Null when no operator matches. */
  async resetPassword(
    idOrEmail: string,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<OperatorPasswordReset | null> | null = null,
  ): Promise<OperatorPasswordReset | null> {
    const password = newOneTimePassword();
    const passwordHash = await this.passwords.hash(password);
    return this.claimed(claim, async (em) => {
      const operator = await this.findByIdOrEmail(em, idOrEmail);
      if (operator === null) return null;
      // A one-time password of a more powerful operator would be a way into its rights.
      assertGrantable(grantor, operator);
      const changed = await this.change(em, operator, {
        passwordHash,
        mustChangePassword: true,
        oneTimePasswordExpiresAt: this.oneTimePasswordExpiry(),
      });
      await this.record(em, actor, 'operator.reset-password', operator);
      return { operator: changed, oneTimePassword: password };
    });
  }

  /**
   * Changes an operator's name, permissions, venues or admin capability. A change of rights moves
   * rights_version on, so its console sessions are over on every instance at their next request.
   * Null when no operator matches.
   */
  async changeRights(
    idOrEmail: string,
    input: OperatorRightsChanges,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<OperatorRightsChange | null> | null = null,
  ): Promise<OperatorRightsChange | null> {
    const wanted: OperatorChanges = {};
    if (input.name !== undefined) wanted.name = check('name', operatorName(input.name));
    if (input.permissions !== undefined)
      wanted.permissions = check('permissions', operatorPermissions(input.permissions));
    if (input.venueIds !== undefined) wanted.venueIds = check('venueIds', operatorVenueIds(input.venueIds));
    if (input.admin !== undefined) wanted.admin = input.admin;
    return this.claimed(claim, async (em) => {
      const operator = await this.findByIdOrEmail(em, idOrEmail);
      if (operator === null) return null;
      // Within the grantor's rights before and after: nobody widens anyone's rights, its own included,
      // past its own, nor changes someone who holds more.
      assertGrantable(grantor, operator);
      assertGrantable(grantor, {
        permissions: wanted.permissions ?? operator.permissions,
        venueIds: wanted.venueIds === undefined ? operator.venueIds : wanted.venueIds,
      });
      const changedFields = changedOperatorFields(operator, wanted);
      if (changedFields.length === 0) return { operator: toOperatorView(operator), changedFields };
      if (changedFields.includes('admin') && operator.admin && operator.status === 'active') {
        await this.keepAnActiveAdmin(em, operator, actor);
      }
      const changed = await this.change(em, operator, wanted);
      await this.audit.record(em, {
        actor,
        action: 'operator.update',
        target: { type: 'operator', id: operator.id },
        venueIds: operator.venueIds,
        changedFields,
      });
      return { operator: changed, changedFields };
    });
  }

  /** Forgets the TOTP authenticator: the next sign-in needs the password alone (and enrols anew). */
  async resetTotp(
    idOrEmail: string,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<OperatorTotpReset | null> | null = null,
  ): Promise<OperatorTotpReset | null> {
    return this.claimed(claim, async (em) => {
      const operator = await this.findByIdOrEmail(em, idOrEmail);
      if (operator === null) return null;
      assertGrantable(grantor, operator);
      const wasEnrolled = operator.totpSecret !== null || operator.totpEnrolledAt !== null;
      if (!wasEnrolled) return { operator: toOperatorView(operator), wasEnrolled };
      const changes = { totpSecret: null, totpEnrolledAt: null, totpLastStep: null };
      const changed = await this.change(em, operator, changes);
      await this.record(em, actor, '2fa.reset', operator);
      return { operator: changed, wasEnrolled };
    });
  }

  /**
   * One use case's transaction with a caller's `claim` (the console's form token) taken first and
   * settled last with the use case's result, so both commit with the change or not at all.
   */
  private claimed<T>(claim: TransactionClaim<T> | null, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const result = await work(em);
      await claim?.settle(em, result);
      return result;
    });
  }

  /** Refuses (LastActiveAdminError) a console operator's change that takes away the last active administrator. */
  private async keepAnActiveAdmin(em: EntityManager, operator: OperatorEntity, actor: AuditActor): Promise<void> {
    if (actor.type !== 'operator') return;
    const admins = await this.operators.lockActiveAdmins(em, this.database.supportsRowLocks);
    if (!admins.some((id) => id !== operator.id)) throw new LastActiveAdminError();
  }

  /** One operator by id, as the console shows it; null when none has that id. */
  async get(id: string): Promise<OperatorView | null> {
    const operator = await this.database.run((em) => this.operators.findById(em, id));
    return operator === null ? null : toOperatorView(operator);
  }

  /** The audit row of a change of `operator`, in the change's transaction; never a password. */
  private async record(em: EntityManager, actor: AuditActor, action: AuditAction, operator: OperatorEntity) {
    await this.audit.record(em, {
      actor,
      action,
      target: { type: 'operator', id: operator.id },
      venueIds: operator.venueIds,
    });
  }

  /** A new active operator from checked input, without its password. */
  private newOperator(input: Omit<CreateOperatorInput, 'password'>): OperatorEntity {
    const operator = new OperatorEntity();
    operator.id = newId();
    operator.email = check('email', operatorEmail(input.email));
    operator.emailKey = operatorEmailKey(operator.email);
    operator.name = check('name', operatorName(input.name));
    operator.permissions = check('permissions', operatorPermissions(input.permissions));
    operator.venueIds = check('venueIds', operatorVenueIds(input.venueIds));
    operator.admin = input.admin;
    operator.status = 'active';
    operator.rightsVersion = 1;
    operator.totpSecret = null;
    operator.totpEnrolledAt = null;
    operator.totpLastStep = null;
    operator.lastSignInAt = null;
    operator.createdAt = operator.updatedAt = this.clock.now();
    return operator;
  }

  /** When a one-time password made at `madeAt` (now by default) stops working. */
  private oneTimePasswordExpiry(madeAt: Date = this.clock.now()): Date {
    return new Date(madeAt.getTime() + this.oneTimePasswordLifetimeMs);
  }

  /** Applies `changes` (moving rights_version on) and returns the operator as stored now. */
  private async change(em: EntityManager, operator: OperatorEntity, changes: OperatorChanges): Promise<OperatorView> {
    await this.operators.change(em, operator.id, changes, this.clock.now());
    const changed = await this.operators.findById(em, operator.id);
    return toOperatorView(changed!);
  }

  /** The operator whose id or email is `idOrEmail`; OperatorAmbiguousError when it is one's id and another's email. */
  private async findByIdOrEmail(em: EntityManager, idOrEmail: string): Promise<OperatorEntity | null> {
    const byId = await this.operators.findById(em, idOrEmail);
    const byEmail = await this.operators.findByEmailKey(em, operatorEmailKey(idOrEmail.trim()));
    // An email may look like an id: never guess which of two operators was meant.
    if (byId !== null && byEmail !== null && byId.id !== byEmail.id) {
      throw new OperatorAmbiguousError(idOrEmail, byId.email);
    }
    return byId ?? byEmail;
  }
}

function newOneTimePassword(): string {
  return oneTimePassword(randomBytes(ONE_TIME_PASSWORD_RANDOM_BYTES));
}

function check<T>(field: keyof CreateOperatorInput, checked: Checked<T>): T {
  if ('error' in checked) throw new OperatorValidationError(field, checked.error);
  return checked.value;
}
