import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import type { AppConfig, PhoneCodesConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { SmsService } from '../sms/sms.service.js';
import { surfaceDir } from '../web/assets.js';
import type { Language } from '../web/language.js';
import type { PhoneChallengeEntity } from './entities/phone-challenge.entity.js';
import {
  challengeState,
  CODE_LIFETIME_MS,
  CODE_TRIES,
  deviceKeyOf,
  e164Of,
  newCode,
  resendAt,
  sendCounters,
  smsTextOf,
  typedCode,
  type PhoneProblem,
} from './phone-verification.rules.js';
import { PhoneVerificationRepository } from './phone-verification.repository.js';

export interface CodeDevice {
  mac: string | null;
  ip: string | null;
}

/** Where the SMS's words come from: the guest's language and the venue's name. */
export interface CodeMessage {
  language: Language;
  venueName: string;
}

/**
 * The answer to a request for a code. It never depends on whether the phone belongs to anyone:
 * phone codes know nothing of users. `limited` does not say which limit (nor `tooSoon` whose send).
 */
export type CodeRequest =
  | { outcome: 'sent'; challengeId: string; expiresAt: Date; resendAt: Date }
  | { outcome: 'too-soon'; retryAt: Date }
  | { outcome: 'limited'; retryAt: Date };

export type CodeCheck =
  | { outcome: 'verified'; phone: string; venueId: string }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'locked' }
  | { outcome: 'expired' };

/** What the screen shows of a challenge. */
export interface ChallengeView {
  venueId: string;
  phone: string;
  expiresAt: Date;
  resendAt: Date;
  state: 'open' | 'verified' | 'locked' | 'expired';
}

/** Thrown inside a send's transaction to undo the counters it had already added to. */
class SendRefused extends Error {
  constructor(readonly refusal: Exclude<CodeRequest, { outcome: 'sent' }>) {
    super(refusal.outcome);
  }
}

/**
 * One-time codes proving a guest holds a phone: 6 digits, hashed (argon2id), 10 minutes, 5 tries;
 * each send counted against the limits per phone, device, venue and country prefix in the same
 * transaction as the code and its SMS (the outbox row), so that a refused send leaves no trace.
 */
@Injectable()
export class PhoneVerificationService {
  private readonly settings: PhoneCodesConfig;
  private readonly texts: Record<Language, Record<string, string>>;

  constructor(
    private readonly database: DatabaseService,
    private readonly challenges: PhoneVerificationRepository,
    private readonly sms: SmsService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('phoneCodes', { infer: true });
    const dir = surfaceDir('phone-verification', 'messages.en.json');
    const read = (language: Language) =>
      JSON.parse(readFileSync(join(dir, `messages.${language}.json`), 'utf8')) as Record<string, string>;
    this.texts = { en: read('en'), tr: read('tr') };
  }

  /** What a guest typed as a phone number, as E.164 by the project's phone rule and this service's settings. */
  normalisePhone(typed: string): { phone: string } | { problem: PhoneProblem } {
    return e164Of(typed, this.settings);
  }

  /** A new challenge for `phone` (E.164) at `venueId`, its code sent by SMS; or why not now. */
  async requestCode(input: {
    venueId: string;
    phone: string;
    device: CodeDevice;
    message: CodeMessage;
  }): Promise<CodeRequest> {
    const code = newCode();
    const codeHash = await this.hasher.hash(code);
    const now = this.clock.now();
    const deviceKey = deviceKeyOf(input.device);
    return this.refusable(async (em) => {
      // Counting first locks the phone's counter row: a concurrent send to the same phone waits, then
      // sees this one's challenge in the resend check.
      await this.countSend(em, { phone: input.phone, deviceKey, venueId: input.venueId, now });
      await this.checkResend(em, input.venueId, input.phone, now);
      const id = newId();
      const expiresAt = new Date(now.getTime() + CODE_LIFETIME_MS);
      const smsId = await this.enqueue(em, input.phone, code, input.message, expiresAt, now);
      await this.challenges.insertChallenge(em, {
        id,
        venueId: input.venueId,
        phone: input.phone,
        deviceKey,
        codeHash,
        attempts: 0,
        sends: 1,
        expiresAt,
        lastSentAt: now,
        verifiedAt: null,
        smsId,
        createdAt: now,
      } satisfies PhoneChallengeEntity);
      return { outcome: 'sent', challengeId: id, expiresAt, resendAt: resendAt(now, this.settings.resendMs) };
    });
  }

  /**
   * A new code for the challenge (the old one stops working, its tries start again), under the same
   * resend pause and limits as a first one. `expired` for a challenge that is gone or verified.
   */
  async resendCode(input: {
    challengeId: string;
    device: CodeDevice;
    message: CodeMessage;
  }): Promise<CodeRequest | { outcome: 'expired' }> {
    const code = newCode();
    const codeHash = await this.hasher.hash(code);
    const now = this.clock.now();
    const deviceKey = deviceKeyOf(input.device);
    return this.refusable(async (em) => {
      const challenge = await this.challenges.lockChallenge(em, input.challengeId);
      if (challenge === null || challenge.verifiedAt !== null) return { outcome: 'expired' as const };
      await this.countSend(em, { phone: challenge.phone, deviceKey, venueId: challenge.venueId, now });
      await this.checkResend(em, challenge.venueId, challenge.phone, now);
      const expiresAt = new Date(now.getTime() + CODE_LIFETIME_MS);
      const smsId = await this.enqueue(em, challenge.phone, code, input.message, expiresAt, now);
      await this.challenges.replaceCode(em, challenge.id, {
        codeHash,
        sends: challenge.sends + 1,
        expiresAt,
        lastSentAt: now,
        smsId,
      });
      return {
        outcome: 'sent' as const,
        challengeId: challenge.id,
        expiresAt,
        resendAt: resendAt(now, this.settings.resendMs),
      };
    });
  }

  /**
   * Checks a typed code. A try is taken first (atomically, before the hash is compared), so that no
   * number of concurrent guesses gets more than CODE_TRIES comparisons. A verified code is used up.
   */
  async verifyCode(challengeId: string, typed: string): Promise<CodeCheck> {
    const now = this.clock.now();
    const challenge = await this.database.run((em) => this.challenges.findChallenge(em, challengeId));
    if (challenge === null) return { outcome: 'expired' };
    const state = challengeState(challenge, now);
    if (state === 'locked') return { outcome: 'locked' };
    if (state !== 'open') return { outcome: 'expired' };
    const taken = await this.database.transaction((em) =>
      this.challenges.takeTry(em, challenge.id, challenge.codeHash, now),
    );
    if (!taken) {
      // Another try took the last one, or the code was replaced, verified or expired meanwhile.
      const current = await this.database.run((em) => this.challenges.findChallenge(em, challenge.id));
      return current !== null && challengeState(current, now) === 'locked'
        ? { outcome: 'locked' }
        : { outcome: 'expired' };
    }
    const code = typedCode(typed);
    const right = code !== null && (await this.hasher.verify('sign-in', challenge.codeHash, code));
    if (!right) {
      const triesLeft = Math.max(0, CODE_TRIES - challenge.attempts - 1);
      return triesLeft === 0 ? { outcome: 'locked' } : { outcome: 'wrong', triesLeft };
    }
    const verified = await this.database.transaction((em) =>
      this.challenges.markVerified(em, challenge.id, challenge.codeHash, this.clock.now()),
    );
    return verified
      ? { outcome: 'verified', phone: challenge.phone, venueId: challenge.venueId }
      : { outcome: 'expired' };
  }

  /** The challenge as the screen shows it; null when there is none by that id. */
  async challenge(challengeId: string): Promise<ChallengeView | null> {
    const challenge = await this.database.run((em) => this.challenges.findChallenge(em, challengeId));
    if (challenge === null) return null;
    return {
      venueId: challenge.venueId,
      phone: challenge.phone,
      expiresAt: challenge.expiresAt,
      resendAt: resendAt(challenge.lastSentAt, this.settings.resendMs),
      state: challengeState(challenge, this.clock.now()),
    };
  }

  /** Deletes challenges expired for a day and counters whose window has closed; returns how many rows. */
  sweep(): Promise<number> {
    const now = this.clock.now();
    return this.database.transaction(
      async (em) =>
        (await this.challenges.deleteChallengesBefore(em, new Date(now.getTime() - 86_400_000))) +
        (await this.challenges.deleteCountersBefore(em, now)),
    );
  }

  /** Runs a send's transaction, turning a refusal thrown inside it (its counts undone) into its answer. */
  private async refusable<T>(work: (em: EntityManager) => Promise<T>): Promise<T | SendRefused['refusal']> {
    let result: T;
    try {
      result = await this.database.transaction(work);
    } catch (error) {
      if (error instanceof SendRefused) return error.refusal;
      throw error;
    }
    this.sms.notify();
    return result;
  }

  private async checkResend(em: EntityManager, venueId: string, phone: string, now: Date): Promise<void> {
    const since = new Date(now.getTime() - this.settings.resendMs);
    const last = await this.challenges.lastSentSince(em, venueId, phone, since);
    if (last !== null) throw new SendRefused({ outcome: 'too-soon', retryAt: resendAt(last, this.settings.resendMs) });
  }

  private async countSend(
    em: EntityManager,
    send: { phone: string; deviceKey: string | null; venueId: string; now: Date },
  ): Promise<void> {
    for (const counter of sendCounters(send, this.settings.limits)) {
      if (!(await this.challenges.countSend(em, counter))) {
        throw new SendRefused({ outcome: 'limited', retryAt: counter.windowEnd });
      }
    }
  }

  private enqueue(
    em: EntityManager,
    phone: string,
    code: string,
    message: CodeMessage,
    expiresAt: Date,
    now: Date,
  ): Promise<string> {
    const template = this.texts[message.language]['phoneVerification.sms'] ?? this.texts.en['phoneVerification.sms'];
    const text = smsTextOf(template, { code, venue: message.venueName });
    return this.sms.enqueue(em, { recipient: phone, text, sendBefore: expiresAt, now });
  }
}
