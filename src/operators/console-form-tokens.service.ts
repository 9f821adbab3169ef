import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { NasSecretUnavailableError, openSecret, sealSecret } from '../nas/secret-box.js';
import { ConsoleFormTokensRepository, type FormTokenOutcome } from './console-form-tokens.repository.js';
import type { ConsoleFormTokenEntity } from './entities/console-form-token.entity.js';
import { sha256Hex } from '../common/sha256.js';

/** How long a result page shows its secret (a generated password, a token's value, recovery codes, cards). */
export const SECRET_RESULT_MINUTES = 10;
const SECRET_RESULT_MS = SECRET_RESULT_MINUTES * 60_000;

/** Details a result page shows besides its secret: never a secret. */
export type FormDetails = Record<string, string | number | boolean | null>;

/** What a change brought by a form leaves for its result page and for a second POST of the same form. */
export interface FormOutcome {
  /** The console page of what was made or changed (the result page itself when there is one). */
  link: string;
  details?: FormDetails;
  /** A secret the result page shows for SECRET_RESULT_MINUTES: sealed in the row, never in a URL. */
  secret?: string | string[];
  /** Without a secret of its own: the result page may still show secret data it reads again (cards) for the window. */
  reveals?: boolean;
}

/** A claim with the id of the result page it leads to (known before the change runs). */
export interface FormClaim<T> extends TransactionClaim<T> {
  readonly resultId: string;
}

/** A result as its page shows it to the session that made it. */
export interface FormResult {
  link: string | null;
  details: FormDetails;
  /** Within the window: the secret is shown (`secret`, or the data the page reads again). */
  open: boolean;
  /** The secret while `open`; null otherwise or when it had none. */
  secret: string | string[] | null;
  /** When the window ends (or ended); null when the result had none. */
  until: Date | null;
}

/** What a used token says to a second POST of its form. */
export type FormTokenUse = { used: false } | { used: true; link: string | null };

/**
 * Another request used the token first (the two ran at once): this request's transaction wrote
 * nothing. The console answers it as a second POST of the form.
 */
export class FormTokenTaken extends Error {
  override name = 'FormTokenTaken';
  constructor(cause: unknown) {
    super('The form token was used by another request.', { cause });
  }
}

/**
 * The console's one-time form tokens once used (see form-tokens.ts for how a page makes one): a
 * use is a row written first thing in the transaction of the change it brings (`claim`), so the
 * change and the token's use commit together, and of two POSTs of one token exactly one changes
 * anything. The row keeps what a second POST is told (a link to what the first did) and what the
 * result page shows, its secret sealed under SECRETS_KEY for SECRET_RESULT_MINUTES, to the same
 * session only. Rows go with their session's sign-out, or once no session can be that old.
 */
@Injectable()
export class ConsoleFormTokensService {
  private readonly key: Buffer | null;
  private readonly sessionMaxMs: number;

  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: ConsoleFormTokensRepository,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.key = config.get('secretsKey', { infer: true });
    this.sessionMaxMs = config.get('console', { infer: true }).absoluteTimeoutMs;
  }

  /**
   * Whether `token` was used, and to what page its change led. Tidies first, in a transaction of its
   * own (never a change's): secrets past their window are erased, rows no session can bring again
   * are deleted. At READ COMMITTED, so its range searches lock the rows they change and no gap that
   * a claim inserting its row at the same time would wait on.
   */
  async use(token: string): Promise<FormTokenUse> {
    const now = this.clock.now();
    await this.database.transaction(
      async (em) => {
        await this.tokens.eraseSecretsBefore(em, now);
        await this.tokens.deleteCreatedBefore(em, new Date(now.getTime() - this.sessionMaxMs));
      },
      { readCommitted: true },
    );
    const row = await this.database.run((em) => this.tokens.findByTokenHash(em, sha256Hex(token)));
    return row === null ? { used: false } : { used: true, link: row.link };
  }

  /**
   * The claim of `token` for one change of the session `sessionHash`, to hand to the service that
   * makes the change. `outcome` is what the row keeps: fixed, or made from the change's result (and
   * the result page's id) when the transaction settles. FormTokenTaken when the token is used already.
   */
  claim<T>(
    sessionHash: string,
    token: string,
    outcome: FormOutcome | ((result: T, resultId: string) => FormOutcome),
  ): FormClaim<T> {
    const resultId = newId();
    const tokenHash = sha256Hex(token);
    return {
      resultId,
      take: async (em) => {
        const now = this.clock.now();
        const row: ConsoleFormTokenEntity = {
          tokenHash,
          resultId,
          sessionHash,
          createdAt: now,
          ...(typeof outcome === 'function' ? EMPTY_OUTCOME : this.columns(outcome, resultId, now)),
        };
        try {
          await this.tokens.insert(em, row);
        } catch (error) {
          // Not a unique violation to the use case: it would take it for one of its own (a name taken).
          throw isUniqueViolation(error) ? new FormTokenTaken(error) : error;
        }
      },
      settle: async (em, result) => {
        if (typeof outcome !== 'function') return;
        await this.tokens.setOutcome(
          em,
          tokenHash,
          this.columns(outcome(result, resultId), resultId, this.clock.now()),
        );
      },
    };
  }

  /** The result `resultId` of the session `sessionHash`, its secret opened while its window lasts; null for another session's. */
  async result(sessionHash: string, resultId: string): Promise<FormResult | null> {
    if (resultId.length > 64) return null;
    const row = await this.database.run((em) => this.tokens.findResult(em, sessionHash, resultId));
    if (row === null) return null;
    const now = this.clock.now();
    const open = row.secretUntil !== null && now < row.secretUntil;
    return {
      link: row.link,
      details: row.details ?? {},
      open,
      secret: open && row.sealedSecret !== null ? this.open(row.sealedSecret, resultId) : null,
      until: row.secretUntil,
    };
  }

  /**
   * A rotation of SECRETS_KEY erases the secrets still in their window rather than sealing them anew
   * (they would be shown a few minutes more at most); returns how many. In the rotation's transaction.
   */
  eraseSecrets(em: EntityManager): Promise<number> {
    return this.tokens.eraseAllSecrets(em);
  }

  private columns(outcome: FormOutcome, resultId: string, now: Date): FormTokenOutcome {
    const secret = outcome.secret ?? null;
    const windowed = secret !== null || outcome.reveals === true;
    return {
      link: outcome.link,
      details: outcome.details ?? null,
      sealedSecret: secret === null ? null : sealSecret(JSON.stringify(secret), context(resultId), this.key),
      secretUntil: windowed ? new Date(now.getTime() + SECRET_RESULT_MS) : null,
    };
  }

  private open(sealed: string, resultId: string): string | string[] | null {
    try {
      return JSON.parse(openSecret(sealed, context(resultId), 'console result', this.key)) as string | string[];
    } catch (error) {
      // Sealed under a key this instance does not have: as good as gone, never an error page.
      if (error instanceof NasSecretUnavailableError) return null;
      throw error;
    }
  }
}

const EMPTY_OUTCOME: FormTokenOutcome = { link: null, details: null, sealedSecret: null, secretUntil: null };

/** The associated data of a sealed result: a sealed secret copied onto another row does not open. */
function context(resultId: string): string {
  return `console-form-result:${resultId}`;
}
