import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ClientInfo } from './console-sessions.service.js';

/**
 * Where the console's sign-in writes its audit rows, one method per action, each called inside the
 * transaction of the change it records. The audit trail is wired in here; nothing else in the
 * console needs to change for it.
 */
@Injectable()
export class SignInAudit {
  /** `signin.success`: the operator is signed in (after the second factor, when enrolled). */
  async signInSucceeded(_em: EntityManager, _operatorId: string, _client: ClientInfo): Promise<void> {}

  /** `signin.failure`: a wrong password or code, an unknown email or a disabled operator (never the password). */
  async signInFailed(_em: EntityManager, _emailKey: string, _client: ClientInfo): Promise<void> {}

  /** `2fa.enrol`: the operator confirmed a new TOTP seed and received new recovery codes. */
  async twoFactorEnrolled(_em: EntityManager, _operatorId: string, _client: ClientInfo): Promise<void> {}
}
