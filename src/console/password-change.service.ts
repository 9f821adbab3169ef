import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { passwordProblem } from '../operators/password-policy.js';
import { SignInAudit } from './sign-in-audit.js';
import { ConsoleSessionsService, type ClientInfo } from './console-sessions.service.js';
import type { SessionWithOperator } from './operator-sessions.repository.js';
import { OperatorAccountsRepository } from './operator-accounts.repository.js';

export type PasswordChangeOutcome = { kind: 'problem'; problem: string } | { kind: 'changed'; sessionId: string };

/** An operator sets a new password: required after a one-time password, possible any time. */
@Injectable()
export class PasswordChangeService {
  constructor(
    private readonly database: DatabaseService,
    private readonly operators: OperatorAccountsRepository,
    private readonly sessions: ConsoleSessionsService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly audit: SignInAudit,
  ) {}

  /**
   * The new password must pass the password policy (`problem` in its words) and be typed twice
   * alike (`mismatch`). Changing it moves rights_version on, which ends every other session of the
   * operator on every instance; this session continues under a new id.
   */
  async change(
    session: SessionWithOperator,
    password: string,
    repeated: string,
    client: ClientInfo,
  ): Promise<PasswordChangeOutcome> {
    if (password !== repeated) return { kind: 'problem', problem: 'mismatch' };
    const problem = passwordProblem(password, session.operator);
    if (problem !== null) return { kind: 'problem', problem };
    const passwordHash = await this.hasher.hash(password);
    const operatorId = session.operator.id;
    const sessionId = await this.database.transaction(async (em) => {
      await this.operators.changePassword(em, operatorId, passwordHash, this.clock.now());
      await this.audit.passwordChanged(em, session.operator, client);
      const operator = await this.operators.findById(em, operatorId);
      const rightsVersion = operator?.rightsVersion ?? session.rightsVersion + 1;
      return this.sessions.replace(em, session.idHash, { id: operatorId, rightsVersion }, client);
    });
    return { kind: 'changed', sessionId };
  }
}
