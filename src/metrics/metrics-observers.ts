import { Injectable } from '@nestjs/common';
import type { ExpiryObserver } from '../hotspot-users/expiry-observer.js';
import type { LoginOutcome } from '../radius/entities/login-attempt.entity.js';
import type { AccountingStatusType, RadiusObserver } from '../radius/radius-observer.js';
import type { RejectReason } from '../radius/radius.rules.js';
import type { SmsDeliveryState } from '../sms/entities/sms-message.entity.js';
import type { SmsAttemptResult, SmsObserver } from '../sms/sms-observer.js';
import type { DeliveryResult, UnauthJobsObserver } from '../unauth-jobs/unauth-jobs-observer.js';
import { HotspotMetrics } from './hotspot-metrics.js';

/**
 * The observers the lower features define, implemented as counters: each call is one increment in
 * memory, no I/O, so it costs the work it observes nothing measurable.
 */
@Injectable()
export class MetricsObservers implements RadiusObserver, UnauthJobsObserver, ExpiryObserver, SmsObserver {
  constructor(private readonly metrics: HotspotMetrics) {}

  authorized(reason: RejectReason | 'accepted'): void {
    this.metrics.authorize.inc(
      reason === 'accepted' ? { result: 'accept', reason: 'accepted' } : { result: 'reject', reason },
    );
  }

  accountingPacket(statusType: AccountingStatusType): void {
    this.metrics.accounting.inc({ status_type: statusType });
  }

  postAuthRecorded(outcome: LoginOutcome): void {
    this.metrics.postAuth.inc({ outcome });
  }

  staleSessionsEnded(count: number): void {
    this.metrics.staleSessions.inc(count);
  }

  delivered(dispatcher: string, result: DeliveryResult): void {
    this.metrics.deliveries.inc({ dispatcher, result });
  }

  roundTrip(kind: 'disconnect' | 'coa', seconds: number): void {
    this.metrics.roundTrip.observe({ kind }, seconds);
  }

  polled(): void {
    this.metrics.workerLastPoll.set(Date.now() / 1000);
  }

  attempted(gateway: string, result: SmsAttemptResult): void {
    this.metrics.smsAttempts.inc({ gateway, result });
  }

  deliveryReported(gateway: string, state: SmsDeliveryState): void {
    this.metrics.smsReports.inc({ gateway, state });
  }

  expirySweepRan(usersExpired: number): void {
    this.metrics.expiryRuns.inc();
    this.metrics.usersExpired.inc(usersExpired);
  }
}
