import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { checkablePassword } from './password-policy.js';
import { isTimeZone } from '../common/validation/time-zone.js';
import type { ClientInfo } from './console-sessions.service.js';
import type { SessionWithOperator } from './session-with-operator.js';
import { OperatorsRepository } from './operators.repository.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeRows } from './recovery-codes.js';
import { SignInAudit } from './sign-in-audit.js';
import { verifyOperatorPassword } from './operator-password.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { openTotpSeed } from './totp-seal.js';
import { matchingTotpStep } from './totp.js';

export type RecoveryCodesOutcome =
  | { kind: 'refused' }
  /** Too many wrong proofs (or sign-in failures) for this operator in a row: try again in this many seconds. */
  | { kind: 'wait'; seconds: number }
  | { kind: 'not-enrolled' }
  | { kind: 'codes'; codes: string[] };

/** A wrong TOTP code for new recovery codes: the transaction, with any claim it took, rolls back. */
class ProofRefused extends Error {}

/** My account: what an operator changes of its own account besides the password and the second factor. */
@Injectable()
export class AccountService {
  private readonly secretsKey: Buffer | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly operators: OperatorsRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
    private readonly audit: SignInAudit,
    private readonly throttle: SignInThrottle,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    config: ConfigService<AppConfig, true>,
  ) {
    this.secretsKey = config.get('secretsKey', { infer: true });
  }

  /**
   * Sets the zone dates are shown in ('UTC' is stored as none); false for a zone this Node.js does
   * not know. A caller's `claim` (the console's form token) commits with the change (none when the
   * zone is the one already set: nothing is written).
   */
  async setTimeZone(
    session: SessionWithOperator,
    zone: string,
    client: ClientInfo,
    claim: TransactionClaim<void> | null = null,
  ): Promise<boolean> {
    if (!isTimeZone(zone)) return false;
    const timeZone = zone === 'UTC' ? null : zone;
    if (timeZone === session.operator.timeZone) return true;
    await this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.operators.setTimeZone(em, session.operator.id, timeZone, this.clock.now());
      await this.audit.accountChanged(em, session.operator, client, ['timeZone']);
      await claim?.settle(em, undefined);
    });
    return true;
  }

  /**
   * Ten new recovery codes replace every old one (used or not), confirmed with the operator's
   * current password or a TOTP code it has not used yet. Only their hashes are kept; a caller's
   * `claim` (the console's form token) is taken first and settled with the codes, in the same
   * transaction, and rolled back with it when the proof is refused.
   */
  async newRecoveryCodes(
    session: SessionWithOperator,
    proof: { password: string; code: string },
    client: ClientInfo,
    claim: TransactionClaim<string[]> | null = null,
  ): Promise<RecoveryCodesOutcome> {
    const operatorId = session.operator.id;
    const stored = await this.database.run((em) => this.operators.findById(em, operatorId));
    if (stored === null || stored.totpSecret === null || stored.totpEnrolledAt === null)
      return { kind: 'not-enrolled' };
    const passwordKey = SignInThrottle.passwordKey(session.operator.email);
    const factorKey = SignInThrottle.secondFactorKey(operatorId);
    const password = proof.password;
    // An attempt with a code counts against the second factor's failures (the stricter), one with a
    // password alone against the password's.
    const throttled = proof.code.trim() !== '' ? factorKey : passwordKey;
    const wait = await this.throttle.claim(throttled);
    if (wait > 0) return { kind: 'wait', seconds: wait };
    const passwordOk =
      checkablePassword(password) &&
      (await this.throttle.checked(throttled, () =>
        verifyOperatorPassword(this.hasher, stored.passwordHash, password),
      ));
    const now = this.clock.now();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    let done: boolean;
    try {
      done = await this.database.transaction(async (em) => {
        await claim?.take(em);
        if (!passwordOk) {
          const seed = openTotpSeed(stored.totpSecret!, operatorId, this.secretsKey);
          const step = matchingTotpStep(seed, proof.code.trim(), now);
          // Thrown, not returned: the claim taken above goes with the transaction.
          if (step === null || !(await this.operators.acceptTotpStep(em, operatorId, step))) throw new ProofRefused();
        }
        await this.recoveryCodes.replaceAll(em, operatorId, recoveryCodeRows(operatorId, codes, now));
        await this.throttle.forget(em, throttled);
        await this.audit.accountChanged(em, session.operator, client, ['recoveryCodes']);
        await claim?.settle(em, codes);
        return true;
      });
    } catch (error) {
      if (!(error instanceof ProofRefused)) throw error;
      done = false;
    }
    if (done) return { kind: 'codes', codes };
    // A wrong password or code here counts as a failed sign-in would: a signed-in session cannot guess faster.
    await this.throttle.failed(passwordKey.key, client);
    return { kind: 'refused' };
  }
}
