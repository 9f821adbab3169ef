import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { renameSync, rmSync } from 'node:fs';
import { BatchesService } from '../batches/batches.service.js';
import type { AppConfig } from '../config/configuration.js';
import { createKeyFile, newSecretsKey } from '../config/secrets-key-file.js';
import { DatabaseService } from '../database/database.service.js';
import { VenuePortalsService } from '../guest-access/venue-portals.service.js';
import { NasService } from '../nas/nas.service.js';
import { ConsoleFormTokensService } from '../operators/console-form-tokens.service.js';
import { OperatorsService } from '../operators/operators.service.js';
import { SmsService } from '../sms/sms.service.js';

/** What a rotation re-sealed, and where the new key is. */
export interface SecretsRotation {
  nasSecrets: number;
  totpSeeds: number;
  batchPasswords: number;
  portalFaskeys: number;
  /** Texts of SMS not yet sent (they hold phone codes). */
  smsMessages: number;
  /** The key file that now holds the new key; null when the key comes from SECRETS_KEY (or there was none). */
  keyFile: string | null;
  /** The new key, to be set as SECRETS_KEY on every instance; null when the key file holds it. */
  newKey: Buffer | null;
}

/**
 * Every stored secret (NAS shared secrets, operators' TOTP seeds, the kept passwords of batches, the
 * portals' openNDS faskeys, the texts of SMS not yet sent) is
 * opened with the current key (SECRETS_KEY, or the key file) and sealed under a new random key, in one
 * transaction: all of them move, or none. A secret still in clear is sealed too. The console's
 * secret results still in their few minutes' window (ConsoleFormTokensService) are erased instead.
 */
@Injectable()
export class SecretsService {
  private readonly currentKey: Buffer | null;
  private readonly keyFile: string | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly nas: NasService,
    private readonly batches: BatchesService,
    private readonly operators: OperatorsService,
    private readonly formTokens: ConsoleFormTokensService,
    private readonly portals: VenuePortalsService,
    private readonly sms: SmsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.currentKey = config.get('secretsKey', { infer: true });
    // The key file in use: not when SECRETS_KEY gave the key.
    this.keyFile = config.get('secretsKeyFile', { infer: true });
  }

  /**
   * With a key file, the new key is written beside it first (`<file>.new`, 0600) and moved over it once
   * the transaction has committed: a crash in between leaves the new key in `<file>.new`, never lost.
   * Throws NasSecretUnavailableError (nothing changed) when the current key cannot open a secret.
   */
  async rotate(): Promise<SecretsRotation> {
    const newKey = newSecretsKey();
    const pending = this.keyFile === null ? null : `${this.keyFile}.new`;
    if (pending !== null) {
      rmSync(pending, { force: true });
      createKeyFile(pending, newKey);
    }
    let counts: Pick<SecretsRotation, 'nasSecrets' | 'totpSeeds' | 'batchPasswords' | 'portalFaskeys' | 'smsMessages'>;
    try {
      counts = await this.database.transaction(async (em) => {
        await this.formTokens.eraseSecrets(em);
        return {
          nasSecrets: await this.nas.resealSecrets(em, this.currentKey, newKey),
          totpSeeds: await this.operators.resealTotpSeeds(em, this.currentKey, newKey),
          batchPasswords: await this.batches.resealPasswords(em, this.currentKey, newKey),
          portalFaskeys: await this.portals.resealFaskeys(em, this.currentKey, newKey),
          smsMessages: await this.sms.resealPending(em, this.currentKey, newKey),
        };
      });
    } catch (error) {
      if (pending !== null) rmSync(pending, { force: true });
      throw error;
    }
    if (pending !== null && this.keyFile !== null) renameSync(pending, this.keyFile);
    return { ...counts, keyFile: this.keyFile, newKey: this.keyFile === null ? newKey : null };
  }
}
