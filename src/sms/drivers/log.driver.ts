import { Logger } from '@nestjs/common';
import { appendFile } from 'node:fs/promises';
import { maskedPhone, type SendVerdict } from '../sms.rules.js';
import type { OutgoingSms, SmsDriver } from './sms-driver.js';

/**
 * Development: nothing leaves the machine. The log line names the message and its length, never its
 * text (the code). To read the code, a developer sets SMS_DEV_OUTBOX_FILE (refused in production):
 * each message, text included, is appended there as one JSON line, the file readable by its owner only.
 */
export class LogDriver implements SmsDriver {
  readonly name = 'log';
  private readonly logger = new Logger('SmsLogGateway');

  constructor(private readonly outboxFile: string | null) {}

  async send(message: OutgoingSms): Promise<SendVerdict> {
    if (this.outboxFile !== null) {
      const line = JSON.stringify({ id: message.id, to: message.to, text: message.text, at: new Date().toISOString() });
      await appendFile(this.outboxFile, `${line}\n`, { mode: 0o600 });
    }
    const where = this.outboxFile === null ? 'not sent' : 'written to SMS_DEV_OUTBOX_FILE';
    this.logger.log(
      `SMS ${message.id} to ${maskedPhone(message.to)}, ${[...message.text].length} characters (log gateway: ${where})`,
    );
    return { verdict: 'accepted', providerId: null };
  }
}
