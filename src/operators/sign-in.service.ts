import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import type { OperatorEntity } from './entities/operator.entity.js';
import { oneTimePasswordExpired } from './operator-rules.js';
import { checkablePassword } from './password-policy.js';
import { ConsoleSessionsService, type ClientInfo } from './console-sessions.service.js';
import type { SessionWithOperator } from './session-with-operator.js';
import { OperatorsRepository } from './operators.repository.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { normalizeRecoveryCode } from './recovery-codes.js';
import { sha256Hex } from '../common/sha256.js';
import type { PasskeyCheck } from './passkeys.service.js';
import { SignInAudit, type AuditedOperator } from './sign-in-audit.js';
import { verifyOperatorPassword } from './operator-password.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { openTotpSeed } from './totp-seal.js';
import { matchingTotpStep } from './totp.js';

export type SignInOutcome =
  | { kind: 'refused' }
  /** The right one-time password, past its lifetime (OPERATOR_ONE_TIME_PASSWORD_HOURS): an administrator must reset it. */
  | { kind: 'expired' }
  /** Too many failures for this email in a row: no attempt is checked for this many seconds. */
  | { kind: 'wait'; seconds: number }
  | { kind: 'session'; sessionId: string };

/**
 * Sign-in: the password step, then the second factor (TOTP or a recovery code) when the operator
 * has enrolled one. Every failure, for a known email or not, slows that email's next attempt down;
 * the second factor's failures slow that operator's next second factor down, until a sign-in completes.
 */
@Injectable()
export class SignInService {
  private readonly secretsKey: Buffer | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly operators: OperatorsRepository,
    private readonly throttle: SignInThrottle,
    private readonly recoveryCodes: RecoveryCodesRepository,
    private readonly sessions: ConsoleSessionsService,
    private readonly audit: SignInAudit,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.secretsKey = config.get('secretsKey', { infer: true });
  }

  async withPassword(email: string, password: string, client: ClientInfo): Promise<SignInOutcome> {
    // A burst of sign-ins past what the sign-in class can verify is told "busy" before any query.
    this.hasher.checkRoom('sign-in');
    const throttled = SignInThrottle.passwordKey(email);
    const wait = await this.throttle.claim(throttled);
    if (wait > 0) return { kind: 'wait', seconds: wait };
    const operator = await this.database.run((em) => this.operators.findByEmailKey(em, throttled.key));
    // The same argon2id work whether or not the email is known; a too long password is never hashed.
    const candidate = checkablePassword(password) ? password : '';
    const verified = await this.throttle.checked(throttled, async () =>
      verifyOperatorPassword(this.hasher, operator?.passwordHash ?? (await this.hasher.standIn()), candidate),
    );
    if (operator === null || !verified || operator.status !== 'active' || candidate === '') {
      await this.throttle.failed(throttled.key, client);
      return { kind: 'refused' };
    }
    if (oneTimePasswordExpired(operator, this.clock.now())) {
      // Still a failure: the count keeps slowing guesses down, and the audit trail shows the attempt.
      await this.throttle.failed(throttled.key, client);
      return { kind: 'expired' };
    }
    const enrolled = operator.totpEnrolledAt !== null && operator.totpSecret !== null;
    const sessionId = await this.database.transaction(async (em) => {
      // The password's failures only: the second factor's are forgotten by a completed sign-in.
      await this.throttle.forget(em, throttled);
      const id = await this.sessions.start(em, operator, enrolled ? 'second-factor' : 'signed-in', client);
      if (!enrolled) await this.signedIn(em, operator, client);
      return id;
    });
    return { kind: 'session', sessionId };
  }

  /** The TOTP step: a code of now ±1 step, never one accepted before (also by a concurrent request). */
  async withTotp(session: SessionWithOperator, code: string, client: ClientInfo): Promise<SignInOutcome> {
    return this.secondFactor(session, client, async (em, operator) => {
      if (operator.totpSecret === null) return false;
      const seed = openTotpSeed(operator.totpSecret, operator.id, this.secretsKey);
      const step = matchingTotpStep(seed, code.trim(), this.clock.now());
      return step !== null && (await this.operators.acceptTotpStep(em, operator.id, step));
    });
  }

  /** A recovery code instead of TOTP: each works once. */
  async withRecoveryCode(session: SessionWithOperator, typed: string, client: ClientInfo): Promise<SignInOutcome> {
    return this.secondFactor(session, client, async (em, operator) => {
      const code = normalizeRecoveryCode(typed);
      return code !== null && (await this.recoveryCodes.use(em, operator.id, sha256Hex(code), this.clock.now()));
    });
  }

  /** A passkey instead of a code: its answer to the challenge this session was given. */
  async withPasskey(session: SessionWithOperator, check: PasskeyCheck, client: ClientInfo): Promise<SignInOutcome> {
    return this.secondFactor(session, client, (em, operator) => check(em, operator.id, session.idHash));
  }

  private async secondFactor(
    session: SessionWithOperator,
    client: ClientInfo,
    check: (em: EntityManager, operator: OperatorEntity) => Promise<boolean>,
  ): Promise<SignInOutcome> {
    const passwordKey = SignInThrottle.passwordKey(session.operator.email);
    const factorKey = SignInThrottle.secondFactorKey(session.operator.id);
    const wait = await this.throttle.claim(factorKey);
    if (wait > 0) return { kind: 'wait', seconds: wait };
    const sessionId = await this.database.transaction(async (em) => {
      const operator = await this.operators.findById(em, session.operator.id);
      if (operator === null || !(await check(em, operator))) return null;
      // The pending session is replaced by a new one: a new id once signed in.
      if (!(await this.sessions.consume(em, session.idHash))) return null;
      await this.throttle.forget(em, passwordKey, factorKey);
      const id = await this.sessions.start(em, operator, 'signed-in', client);
      await this.signedIn(em, operator, client);
      return id;
    });
    if (sessionId === null) {
      await this.throttle.failed(passwordKey.key, client);
      return { kind: 'refused' };
    }
    return { kind: 'session', sessionId };
  }

  private async signedIn(em: EntityManager, operator: AuditedOperator, client: ClientInfo): Promise<void> {
    await this.operators.markSignedIn(em, operator.id, this.clock.now());
    await this.audit.signInSucceeded(em, operator, client);
  }
}
