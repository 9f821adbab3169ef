import { Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task.js';
import { SmsModule } from '../sms/sms.module.js';
import { PhoneVerificationRepository } from './phone-verification.repository.js';
import { PhoneVerificationService } from './phone-verification.service.js';

/** How often expired challenges and closed counters are deleted. */
const SWEEP_INTERVAL_MS = 3_600_000;

/** One-time phone codes, sent through the SMS outbox; an hourly sweep of what has expired. */
@Module({
  imports: [SmsModule],
  providers: [PhoneVerificationRepository, PhoneVerificationService],
  exports: [PhoneVerificationService],
})
export class PhoneVerificationModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweep: PeriodicTask;

  constructor(service: PhoneVerificationService) {
    this.sweep = new PeriodicTask(
      'Phone code sweep',
      () => service.sweep().then(() => undefined),
      new Logger('PhoneCodes'),
    );
  }

  onApplicationBootstrap(): void {
    this.sweep.start(SWEEP_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.sweep.stop();
  }
}
