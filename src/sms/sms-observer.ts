import type { SmsDeliveryState } from './entities/sms-message.entity.js';

/** What became of one send attempt, as a metric counts it. */
export type SmsAttemptResult = 'sent' | 'retried' | 'failed';

/**
 * What the SMS sender and the delivery reports tell whoever watches them (the metrics module
 * provides it as SMS_OBSERVER). Values come from fixed sets only: never a phone number or a text.
 */
export interface SmsObserver {
  attempted(gateway: string, result: SmsAttemptResult): void;
  deliveryReported(gateway: string, state: SmsDeliveryState): void;
}

export const SMS_OBSERVER = Symbol('SMS_OBSERVER');
