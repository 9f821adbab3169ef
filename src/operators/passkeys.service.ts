import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import type { ClientInfo } from './console-sessions.service.js';
import { OperatorPasskeyEntity } from './entities/operator-passkey.entity.js';
import type { SessionWithOperator } from './session-with-operator.js';
import { OperatorSessionsRepository } from './operator-sessions.repository.js';
import { CEREMONY_RESPONSE_MAX_LENGTH, passkeyName, parsedCeremonyResponse } from './passkeys.rules.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { SignInAudit } from './sign-in-audit.js';

/** The longest browser answer of a passkey ceremony read from a form (longer ones are refused whole). */
export const PASSKEY_ANSWER_MAX_LENGTH = CEREMONY_RESPONSE_MAX_LENGTH + 1;

/** A passkey as My account lists it: never its key. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The relying party passkeys are bound to: CONSOLE_ORIGIN and its host name. */
interface RelyingParty {
  id: string;
  origin: string;
}

/** What a second factor's check does with a passkey's answer, inside the sign-in's transaction. */
export type PasskeyCheck = (em: EntityManager, operatorId: string, sessionIdHash: string) => Promise<boolean>;

/** The challenge of a registration was taken by another answer between its check and its storing. */
class ChallengeGone extends Error {}

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server) as a second factor beside TOTP: an operator adds
 * them in My account and may use one instead of a code at sign-in. Each ceremony's challenge is kept
 * on the console session (on every instance) and taken once. Offered only when CONSOLE_ORIGIN names
 * where browsers reach the console: a passkey is bound to that origin, so a look-alike site cannot use it.
 */
@Injectable()
export class PasskeysService {
  private readonly relyingParty: RelyingParty | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly passkeys: PasskeysRepository,
    private readonly sessions: OperatorSessionsRepository,
    private readonly audit: SignInAudit,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    const origin = config.get('console', { infer: true }).origin;
    this.relyingParty = origin === null ? null : { id: new URL(origin).hostname, origin };
  }

  /** Whether passkeys are offered at all (CONSOLE_ORIGIN is set). */
  get offered(): boolean {
    return this.relyingParty !== null;
  }

  async list(operatorId: string): Promise<PasskeyView[]> {
    const rows = await this.database.run((em) => this.passkeys.listOfOperator(em, operatorId));
    return rows.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }));
  }

  /** The options the browser creates a new passkey with; null when passkeys are not offered. */
  async registrationOptions(session: SessionWithOperator): Promise<PublicKeyCredentialCreationOptionsJSON | null> {
    const party = this.relyingParty;
    if (party === null) return null;
    const { operator } = session;
    const existing = await this.database.run((em) => this.passkeys.listOfOperator(em, operator.id));
    const options = await generateRegistrationOptions({
      rpName: 'Hotspot console',
      rpID: party.id,
      userName: operator.email,
      userDisplayName: operator.name,
      userID: Buffer.from(operator.id, 'utf8'),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credentialId,
        transports: this.transports(passkey),
      })),
      authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
    });
    await this.database.transaction((em) => this.sessions.setWebauthnChallenge(em, session.idHash, options.challenge));
    return options;
  }

  /**
   * Stores the passkey the browser created, named `name`; false when its answer does not verify. The
   * ceremony's challenge is used once: cleared by a failed check, or taken in the transaction that
   * stores the passkey, with a caller's `claim` (the console's form token) taken before it, so of two
   * POSTs of one form the second finds the claim taken rather than the challenge gone.
   */
  async register(
    session: SessionWithOperator,
    answer: string,
    name: string,
    client: ClientInfo,
    claim: TransactionClaim<void> | null = null,
  ): Promise<boolean> {
    const party = this.relyingParty;
    const response = parsedCeremonyResponse<RegistrationResponseJSON>(answer);
    const label = passkeyName(name);
    if (party === null || response === null || label === null) return false;
    const challenge = await this.database.run((em) => this.sessions.webauthnChallenge(em, session.idHash));
    if (challenge === null) return false;
    let credential;
    try {
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        requireUserVerification: false,
      });
      if (!verification.verified) credential = null;
      else credential = verification.registrationInfo.credential;
    } catch {
      credential = null;
    }
    if (credential === null) {
      await this.database.run((em) => this.sessions.clearWebauthnChallenge(em, session.idHash, challenge));
      return false;
    }
    const passkey = Object.assign(new OperatorPasskeyEntity(), {
      id: newId(),
      operatorId: session.operator.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: String(credential.counter),
      transports: credential.transports ?? null,
      name: label,
      createdAt: this.clock.now(),
      lastUsedAt: null,
    });
    try {
      await this.database.transaction(async (em) => {
        await claim?.take(em);
        // Thrown, not returned: the claim taken above goes with the transaction.
        if (!(await this.sessions.clearWebauthnChallenge(em, session.idHash, challenge))) throw new ChallengeGone();
        await this.passkeys.insert(em, passkey);
        await this.audit.accountChanged(em, session.operator, client, ['passkeys']);
        await claim?.settle(em, undefined);
      });
    } catch (error) {
      // The challenge used by another answer meanwhile, or the same authenticator registered twice.
      if (error instanceof ChallengeGone || isUniqueViolation(error)) return false;
      throw error;
    }
    return true;
  }

  /** Removes one of the operator's passkeys; false when it has none of that id. `claim` as register's. */
  async remove(
    session: SessionWithOperator,
    id: string,
    client: ClientInfo,
    claim: TransactionClaim<void> | null = null,
  ): Promise<boolean> {
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      if (!(await this.passkeys.deleteOfOperator(em, session.operator.id, id))) return false;
      await this.audit.accountChanged(em, session.operator, client, ['passkeys']);
      await claim?.settle(em, undefined);
      return true;
    });
  }

  /** The options the browser signs in with one of the operator's passkeys; null when it has none (or none are offered). */
  async authenticationOptions(session: SessionWithOperator): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
    const party = this.relyingParty;
    if (party === null) return null;
    const existing = await this.database.run((em) => this.passkeys.listOfOperator(em, session.operator.id));
    if (existing.length === 0) return null;
    const options = await generateAuthenticationOptions({
      rpID: party.id,
      allowCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: this.transports(passkey) })),
      userVerification: 'preferred',
    });
    await this.database.transaction((em) => this.sessions.setWebauthnChallenge(em, session.idHash, options.challenge));
    return options;
  }

  /**
   * The check of a sign-in's second factor with a passkey's answer: the session's challenge (taken
   * once), one of this operator's passkeys, its signature and counter. Runs in the sign-in's transaction.
   */
  assertion(answer: string): PasskeyCheck {
    return async (em, operatorId, sessionIdHash) => {
      const party = this.relyingParty;
      const response = parsedCeremonyResponse<AuthenticationResponseJSON>(answer);
      if (party === null || response === null) return false;
      const challenge = await this.sessions.takeWebauthnChallenge(em, sessionIdHash);
      if (challenge === null) return false;
      const passkey = await this.passkeys.findOfOperator(em, operatorId, response.id);
      if (passkey === null) return false;
      let newCounter: number;
      try {
        const verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: party.origin,
          expectedRPID: party.id,
          requireUserVerification: false,
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: Number(passkey.signCount),
            transports: this.transports(passkey),
          },
        });
        if (!verification.verified) return false;
        newCounter = verification.authenticationInfo.newCounter;
      } catch {
        return false;
      }
      return this.passkeys.recordUse(em, passkey.id, passkey.signCount, newCounter, this.clock.now());
    };
  }

  private transports(passkey: OperatorPasskeyEntity): AuthenticatorTransport[] | undefined {
    return (passkey.transports ?? undefined) as AuthenticatorTransport[] | undefined;
  }
}
