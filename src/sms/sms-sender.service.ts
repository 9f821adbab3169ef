import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig, SmsConfig } from '../config/configuration.js';
import { SMS_DRIVER, type SmsDriver } from './drivers/sms-driver.js';
import { maskedPhone, reportUrlOf, type SendVerdict } from './sms.rules.js';
import { SmsService, type ClaimedSms } from './sms.service.js';

/** Messages claimed per round. */
const BATCH_SIZE = 10;

/**
 * Moves messages from the outbox to the gateway: claims due ones in a short transaction, sends them
 * outside it, records each outcome. Several senders (instances, `npm run worker`) may run against one
 * database; a message is held by one at a time under a lease. Runs where WORKER_ENABLED is true.
 */
@Injectable()
export class SmsSender implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SmsSender.name);
  private readonly settings: SmsConfig;
  private readonly enabled: boolean;
  private readonly leaseMs: number;
  private readonly abort = new AbortController();
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private woken = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly sms: SmsService,
    private readonly clock: Clock,
    @Inject(SMS_DRIVER) private readonly driver: SmsDriver,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('sms', { infer: true });
    this.enabled = config.get('unauthJobs', { infer: true }).workerEnabled;
    // Long enough for a send that times out, then its outcome's write.
    this.leaseMs = 2 * this.settings.timeoutMs + 10_000;
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.start();
  }

  start(): void {
    if (this.loop !== null) return;
    this.unsubscribe = this.sms.onEnqueued(() => {
      this.woken = true;
      this.wake?.();
    });
    this.logger.log(`SMS sender started (gateway: ${this.driver.name})`);
    if (this.driver.name === 'log')
      this.logger.warn('SMS_GATEWAY is log: no SMS leaves this machine (development only)');
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wake?.();
    // A send under way is aborted: its message stays leased and is tried again when the lease runs out.
    setTimeout(() => this.abort.abort(), this.settings.timeoutMs).unref();
    await this.loop;
  }

  /** Claims and sends one batch; returns how many it claimed. */
  async processBatch(): Promise<number> {
    const claimed = await this.sms.claimDue(this.clock.now(), BATCH_SIZE, this.leaseMs);
    await Promise.all(claimed.map((message) => this.deliver(message)));
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.processBatch();
      } catch (error) {
        if (this.abort.signal.aborted) break;
        this.logger.warn(`Could not send SMS: ${(error as Error).message}`);
      }
      if (claimed < BATCH_SIZE && !this.stopping) await this.pause(this.settings.pollIntervalMs);
    }
  }

  private async deliver(message: ClaimedSms): Promise<void> {
    let verdict: SendVerdict;
    if (message.text === null || message.reference === null) {
      verdict = { verdict: 'refused', reason: 'its text cannot be opened with SECRETS_KEY' };
    } else if (message.sendBefore.getTime() <= this.clock.now().getTime()) {
      verdict = { verdict: 'refused', reason: 'no longer worth sending (what it tells has expired)' };
    } else {
      const reportUrl =
        this.settings.reportBaseUrl === null ? null : reportUrlOf(this.settings.reportBaseUrl, message.reference);
      verdict = await this.driver.send(
        { id: message.id, to: message.recipient, text: message.text, reportUrl },
        this.abort.signal,
      );
    }
    const result = await this.sms.recordAttempt(message, verdict, this.clock.now());
    if (verdict.verdict === 'accepted') {
      this.logger.debug(`SMS ${message.id} to ${maskedPhone(message.recipient)} sent through ${this.driver.name}`);
    } else {
      this.logger.warn(
        `SMS ${message.id} to ${maskedPhone(message.recipient)} attempt ${message.attempts} ${result}: ${verdict.reason}`,
      );
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.woken = false;
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
