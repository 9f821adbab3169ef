import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import type { AppConfig, SmsConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { newId } from '../common/ids.js';
import { openSecret, resealSecret, sealSecret } from '../nas/secret-box.js';
import { retryDelayMs } from '../unauth-jobs/retry-delay.js';
import { SmsMessageEntity, type SmsDeliveryState } from './entities/sms-message.entity.js';
import { SMS_OBSERVER, type SmsObserver } from './sms-observer.js';
import {
  afterFailure,
  contentJson,
  contentOf,
  isReportReference,
  newReportReference,
  nextDeliveryState,
  reportKeyOf,
  type SendVerdict,
} from './sms.rules.js';
import { SmsRepository } from './sms.repository.js';

/** A message a sender holds for one attempt, its text opened. */
export interface ClaimedSms {
  id: string;
  gateway: string;
  recipient: string;
  attempts: number;
  leaseExpiresAt: Date;
  sendBefore: Date;
  /** null when the sealed text could not be opened (another SECRETS_KEY): the message fails unsent. */
  text: string | null;
  reference: string | null;
}

/** What a delivery report did: recorded, nothing new (a final state stays), or no such message. */
export type ReportOutcome = 'recorded' | 'unchanged' | 'unknown';

/** How long a sent or failed message (recipient, outcome, delivery state; never its text) is kept. */
export const SMS_KEEP_DAYS = 30;

/** Binds a sealed text to its message: copied onto another row, it does not open. */
function sealContext(id: string): string {
  return `sms:${id}`;
}

/**
 * The SMS outbox: a message is written in its caller's transaction (enqueue), claimed and sent by
 * the sender loop (SmsSender), its outcome and later delivery reports recorded here.
 */
@Injectable()
export class SmsService {
  private readonly logger = new Logger(SmsService.name);
  private readonly settings: SmsConfig;
  private readonly key: Buffer | null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly database: DatabaseService,
    private readonly messages: SmsRepository,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(SMS_OBSERVER) private readonly observer: SmsObserver | null = null,
  ) {
    this.settings = config.get('sms', { infer: true });
    this.key = config.get('secretsKey', { infer: true }) ?? null;
  }

  /**
   * Writes a message to `recipient` (E.164) in the caller's transaction; it is sent once that
   * commits (call `notify` after the commit to send it at once), and not after `sendBefore`.
   */
  async enqueue(em: EntityManager, message: { recipient: string; text: string; sendBefore: Date; now: Date }) {
    const id = newId();
    const reference = newReportReference();
    const sealed = sealSecret(contentJson({ text: message.text, reference }), sealContext(id), this.key);
    await this.messages.insert(em, {
      id,
      recipient: message.recipient,
      gateway: this.settings.gateway,
      sealedContent: sealed,
      reportKey: reportKeyOf(reference),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: message.now,
      leaseExpiresAt: null,
      sendBefore: message.sendBefore,
      lastError: null,
      providerMessageId: null,
      delivery: null,
      deliveryReportedAt: null,
      sentAt: null,
      createdAt: message.now,
      updatedAt: message.now,
    } satisfies SmsMessageEntity);
    return id;
  }

  /** Wakes this process's sender: a message was committed. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  onEnqueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Claims up to `limit` due messages for one attempt each, under a lease of `leaseMs`. */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedSms[]> {
    return this.database.transaction(async (em) => {
      const claimed: ClaimedSms[] = [];
      for (const found of await this.messages.findDue(em, now, limit)) {
        const claim = { attempts: found.attempts + 1, leaseExpiresAt: new Date(now.getTime() + leaseMs) };
        if (!(await this.messages.claim(em, found, claim, now))) continue;
        const content = this.opened(found);
        claimed.push({
          id: found.id,
          gateway: found.gateway,
          recipient: found.recipient,
          sendBefore: found.sendBefore,
          ...claim,
          text: content?.text ?? null,
          reference: content?.reference ?? null,
        });
      }
      return claimed;
    });
  }

  /**
   * Records an attempt: sent (the text erased), retried later with backoff, or failed (the text
   * erased) after a refusal or the last attempt. Nothing when the lease ran out meanwhile (another
   * sender has the message now).
   */
  async recordAttempt(message: ClaimedSms, verdict: SendVerdict, now: Date): Promise<'sent' | 'retried' | 'failed'> {
    let result: 'sent' | 'retried' | 'failed';
    let changes: Partial<SmsMessageEntity>;
    if (verdict.verdict === 'accepted') {
      result = 'sent';
      changes = {
        status: 'sent',
        sealedContent: null,
        sentAt: now,
        providerMessageId: verdict.providerId,
        lastError: null,
        leaseExpiresAt: null,
      };
    } else if (afterFailure(verdict.verdict, message.attempts, this.settings.maxAttempts) === 'retry') {
      result = 'retried';
      const delay = retryDelayMs(message.attempts, this.settings.retryBaseMs);
      changes = {
        status: 'pending',
        nextAttemptAt: new Date(now.getTime() + delay),
        leaseExpiresAt: null,
        lastError: verdict.reason.slice(0, 255),
      };
    } else {
      result = 'failed';
      changes = {
        status: 'failed',
        sealedContent: null,
        leaseExpiresAt: null,
        lastError: verdict.reason.slice(0, 255),
      };
    }
    const recorded = await this.database.transaction((em) =>
      this.messages.updateWhileLeased(em, message.id, message.leaseExpiresAt, { ...changes, updatedAt: now }),
    );
    if (recorded) this.observer?.attempted(message.gateway, result);
    return result;
  }

  /**
   * A delivery report for the message whose reference it carries. A final state (delivered, failed)
   * is kept against later reports; an unknown or malformed reference is `unknown`.
   */
  async recordReport(reference: string, state: SmsDeliveryState, now: Date): Promise<ReportOutcome> {
    if (!isReportReference(reference)) return 'unknown';
    const outcome = await this.database.transaction(async (em) => {
      const message = await this.messages.lockByReportKey(em, reportKeyOf(reference));
      if (message === null) return { outcome: 'unknown' as const, gateway: '' };
      const next = nextDeliveryState(message.delivery, state);
      if (next === null) return { outcome: 'unchanged' as const, gateway: message.gateway };
      await this.messages.updateDelivery(em, message.id, { delivery: next, deliveryReportedAt: now, updatedAt: now });
      return { outcome: 'recorded' as const, gateway: message.gateway };
    });
    if (outcome.outcome !== 'unknown') this.observer?.deliveryReported(outcome.gateway, state);
    return outcome.outcome;
  }

  /**
   * Every text not yet sent sealed anew under `to` after opening it with `from`, in the caller's
   * transaction (secrets rotate); returns how many. NasSecretUnavailableError when `from` cannot open one.
   */
  async resealPending(em: EntityManager, from: Buffer | null, to: Buffer | null): Promise<number> {
    const rows = await this.messages.findSealed(em);
    for (const row of rows) {
      if (row.sealedContent === null) continue;
      const sealed = resealSecret(row.sealedContent, sealContext(row.id), `SMS ${row.id}`, from, to);
      await this.messages.replaceSealed(em, row.id, sealed);
    }
    return rows.length;
  }

  /** Deletes messages settled more than SMS_KEEP_DAYS ago (their delivery reports with them); returns how many. */
  sweep(now: Date): Promise<number> {
    const before = new Date(now.getTime() - SMS_KEEP_DAYS * 86_400_000);
    return this.database.transaction((em) => this.messages.deleteSettledBefore(em, before));
  }

  private opened(message: SmsMessageEntity): { text: string; reference: string } | null {
    if (message.sealedContent === null) return null;
    try {
      return contentOf(openSecret(message.sealedContent, sealContext(message.id), `SMS ${message.id}`, this.key));
    } catch (error) {
      this.logger.error(`SMS ${message.id} cannot be opened: ${(error as Error).message}`);
      return null;
    }
  }
}
