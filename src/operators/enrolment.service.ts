import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { ConsoleSessionsService, type ClientInfo } from './console-sessions.service.js';
import type { SessionWithOperator } from './session-with-operator.js';
import { OperatorsRepository } from './operators.repository.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeRows } from './recovery-codes.js';
import { SignInAudit } from './sign-in-audit.js';
import { openTotpSeed, sealTotpSeed } from './totp-seal.js';
import { base32Encode, matchingTotpStep, newTotpSeed, otpauthUri } from './totp.js';

/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = 'Hotspot';

export interface EnrolmentOffer {
  uri: string;
  secret: string;
}

/** TOTP enrolment: a new seed shown as a QR code, confirmed with a code, then ten recovery codes shown once. */
@Injectable()
export class EnrolmentService {
  private readonly secretsKey: Buffer | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly operators: OperatorsRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
    private readonly sessions: ConsoleSessionsService,
    private readonly audit: SignInAudit,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.secretsKey = config.get('secretsKey', { infer: true });
  }

  /** The seed offered to this session: made (and kept, sealed, on the session) at the first look, so a reload shows the same. */
  async offer(session: SessionWithOperator): Promise<EnrolmentOffer> {
    let seed = this.pendingSeed(session);
    if (seed === null) {
      seed = newTotpSeed();
      const sealed = sealTotpSeed(seed, session.operator.id, this.secretsKey);
      await this.sessions.setPendingTotpSecret(session.idHash, sealed);
    }
    const uri = otpauthUri(seed, TOTP_ISSUER, session.operator.email);
    return { uri, secret: base32Encode(seed) };
  }

  /**
   * Confirms the offered seed with a code from the app: the seed becomes the operator's, ten new
   * recovery codes replace any old ones, and the session gets a new id. Null for a wrong code. A
   * caller's `claim` (the console's form token) is taken first and settled last with the codes, in
   * the same transaction (the claim goes with the session to its new id).
   */
  async confirm(
    session: SessionWithOperator,
    code: string,
    client: ClientInfo,
    claim: TransactionClaim<string[]> | null = null,
  ): Promise<{ sessionId: string; recoveryCodes: string[] } | null> {
    const seed = this.pendingSeed(session);
    if (seed === null) return null;
    const now = this.clock.now();
    const step = matchingTotpStep(seed, code.trim(), now);
    if (step === null) return null;
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const operatorId = session.operator.id;
    const sealed = sealTotpSeed(seed, operatorId, this.secretsKey);
    const sessionId = await this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.operators.saveTotpEnrolment(em, operatorId, sealed, step, now);
      await this.recoveryCodes.replaceAll(em, operatorId, recoveryCodeRows(operatorId, codes, now));
      await this.audit.twoFactorEnrolled(em, session.operator, client);
      const id = await this.sessions.replace(
        em,
        session,
        { id: operatorId, rightsVersion: session.rightsVersion },
        client,
      );
      await claim?.settle(em, codes);
      return id;
    });
    return { sessionId, recoveryCodes: codes };
  }

  private pendingSeed(session: SessionWithOperator): Buffer | null {
    if (session.pendingTotpSecret === null) return null;
    return openTotpSeed(session.pendingTotpSecret, session.operator.id, this.secretsKey);
  }
}
