import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { oneTimePasswordExpired } from './operator-rules.js';
import { checkablePassword, normalisedPassword, passwordProblem } from './password-policy.js';
import { verifyOperatorPassword } from './operator-password.js';
import { SignInAudit } from './sign-in-audit.js';
import { ConsoleSessionsService, type ClientInfo } from './console-sessions.service.js';
import type { SessionWithOperator } from './session-with-operator.js';
import { OperatorsRepository } from './operators.repository.js';
import { SignInThrottle } from './sign-in-throttle.js';

export type PasswordChangeOutcome =
  | { kind: 'problem'; problem: string }
  /** Too many wrong current passwords: nothing is checked for this many seconds. */
  | { kind: 'wait'; seconds: number }
  | { kind: 'changed'; sessionId: string };

/**
 * An operator sets a new password: required after a one-time password, possible any time. The
 * current password (the one-time password, for the forced change) is asked every time: a stolen
 * session cookie alone cannot take the account over.
 */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly database: DatabaseService,
    private readonly operators: OperatorsRepository,
    private readonly sessions: ConsoleSessionsService,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
    private readonly clock: Clock,
    private readonly audit: SignInAudit,
  ) {}

  /**
   * The new password must pass the password policy (`problem` in its words), be typed twice alike
   * (`mismatch`) and differ from the current one (`same`); the current one must be right and, when
   * it is a one-time password, not expired (`current`; a wrong one counts as a failed sign-in). Changing it moves rights_version on, which ends every
   * other session of the operator on every instance; this session continues under a new id, with
   * its original start and absolute end. A caller's `claim` (the console's form token) is taken
   * first and settled last, in the transaction of the change.
   */
  async change(
    session: SessionWithOperator,
    current: string,
    password: string,
    repeated: string,
    client: ClientInfo,
    claim: TransactionClaim<void> | null = null,
  ): Promise<PasswordChangeOutcome> {
    if (password !== repeated) return { kind: 'problem', problem: 'mismatch' };
    const problem = passwordProblem(password, session.operator);
    if (problem !== null) return { kind: 'problem', problem };
    if (normalisedPassword(password) === normalisedPassword(current)) return { kind: 'problem', problem: 'same' };
    this.hasher.checkRoom('sign-in');
    const operatorId = session.operator.id;
    const throttled = SignInThrottle.passwordKey(session.operator.email);
    const wait = await this.throttle.claim(throttled);
    if (wait > 0) return { kind: 'wait', seconds: wait };
    const stored = await this.database.run((em) => this.operators.findById(em, operatorId));
    const currentOk =
      stored !== null &&
      !oneTimePasswordExpired(stored, this.clock.now()) &&
      checkablePassword(current) &&
      (await this.throttle.checked(throttled, () => verifyOperatorPassword(this.hasher, stored.passwordHash, current)));
    if (!currentOk) {
      await this.throttle.failed(throttled.key, client);
      return { kind: 'problem', problem: 'current' };
    }
    const passwordHash = await this.hasher.hash(normalisedPassword(password));
    const sessionId = await this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.throttle.forget(em, throttled);
      await this.operators.changePassword(em, operatorId, passwordHash, this.clock.now());
      await this.audit.passwordChanged(em, session.operator, client);
      const operator = await this.operators.findById(em, operatorId);
      const rightsVersion = operator?.rightsVersion ?? session.rightsVersion + 1;
      const id = await this.sessions.replace(em, session, { id: operatorId, rightsVersion }, client);
      await claim?.settle(em, undefined);
      return id;
    });
    return { kind: 'changed', sessionId };
  }
}
