import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service.js';
import type { AuditAction } from '../audit/audit.rules.js';
import type { ClientInfo } from './console-sessions.service.js';
import { OperatorsRepository } from './operators.repository.js';

/** The operator an event is about, as the audit trail names it (never a password or code). */
export interface AuditedOperator {
  id: string;
  email: string;
}

/**
 * The audit rows of the console's sign-in, one method per action, each written inside the
 * transaction of the change it records (a failure's row commits with the failure count).
 */
@Injectable()
export class SignInAudit {
  constructor(
    private readonly audit: AuditService,
    private readonly operators: OperatorsRepository,
  ) {}

  /** `signin.success`: the operator is signed in (after the second factor, when enrolled). */
  async signInSucceeded(em: EntityManager, operator: AuditedOperator, client: ClientInfo): Promise<void> {
    await this.record(em, 'signin.success', operator, client);
  }

  /**
   * `signin.failure`: a wrong password or code, an unknown email or a disabled operator. The attempt
   * names the operator whose email was typed; text that is no operator's email is not kept, since
   * people type their password into the email field by mistake.
   */
  async signInFailed(em: EntityManager, emailKey: string, client: ClientInfo): Promise<void> {
    const operator = await this.operators.findByEmailKey(em, emailKey);
    await this.audit.record(em, {
      actor: { type: 'operator', id: operator?.id ?? null, name: operator?.email ?? null },
      action: 'signin.failure',
      target: { type: 'operator', id: operator?.id ?? null },
      venueIds: null,
      origin: { clientAddress: client.ip, requestId: client.requestId },
      outcome: 'failure',
    });
  }

  /** `2fa.enrol`: the operator confirmed a new TOTP seed and received new recovery codes. */
  async twoFactorEnrolled(em: EntityManager, operator: AuditedOperator, client: ClientInfo): Promise<void> {
    await this.record(em, '2fa.enrol', operator, client);
  }

  /** `operator.update` with `password` changed: the operator set a new password in the console. */
  async passwordChanged(em: EntityManager, operator: AuditedOperator, client: ClientInfo): Promise<void> {
    await this.record(em, 'operator.update', operator, client, ['password']);
  }

  /** `operator.update` naming what the operator changed of its own account (`timeZone`, `recoveryCodes`). */
  async accountChanged(
    em: EntityManager,
    operator: AuditedOperator,
    client: ClientInfo,
    changedFields: readonly string[],
  ): Promise<void> {
    await this.record(em, 'operator.update', operator, client, changedFields);
  }

  private async record(
    em: EntityManager,
    action: AuditAction,
    operator: AuditedOperator,
    client: ClientInfo,
    changedFields?: readonly string[],
  ): Promise<void> {
    await this.audit.record(em, {
      actor: { type: 'operator', id: operator.id, name: operator.email },
      action,
      target: { type: 'operator', id: operator.id },
      venueIds: null,
      changedFields,
      origin: { clientAddress: client.ip, requestId: client.requestId },
    });
  }
}
