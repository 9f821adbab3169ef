import { Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { PeriodicTask } from '../common/periodic-task.js';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { HttpDriver } from './drivers/http.driver.js';
import { KannelDriver } from './drivers/kannel.driver.js';
import { LogDriver } from './drivers/log.driver.js';
import { SMS_DRIVER, type SmsDriver } from './drivers/sms-driver.js';
import { SmsReportsController } from './sms-reports.controller.js';
import { SmsSender } from './sms-sender.service.js';
import { SmsRepository } from './sms.repository.js';
import { SmsService } from './sms.service.js';

/** The driver of SMS_GATEWAY (also what `hotspot sms test` sends through). */
export const SMS_DRIVER_PROVIDER: Provider = {
  provide: SMS_DRIVER,
  inject: [ConfigService],
  useFactory: (config: ConfigService<AppConfig, true>): SmsDriver => {
    const sms = config.get('sms', { infer: true });
    const url = sms.url ?? '';
    switch (sms.gateway) {
      case 'kannel':
        return new KannelDriver({ url, sender: sms.sender, timeoutMs: sms.timeoutMs });
      case 'http':
        return new HttpDriver({ url, sender: sms.sender, timeoutMs: sms.timeoutMs, http: sms.http });
      case 'log':
        return new LogDriver(sms.devOutboxFile);
    }
  },
};

/** How often messages settled long ago are deleted. */
const SWEEP_INTERVAL_MS = 3_600_000;

/**
 * SMS delivery: the outbox, its sender loop, the gateway of SMS_GATEWAY, its delivery reports, and an
 * hourly sweep of messages settled more than SMS_KEEP_DAYS ago.
 */
@Module({
  controllers: [SmsReportsController],
  providers: [SmsRepository, SmsService, SmsSender, SMS_DRIVER_PROVIDER],
  exports: [SmsService, SmsSender],
})
export class SmsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweep: PeriodicTask;

  constructor(sms: SmsService, clock: Clock) {
    this.sweep = new PeriodicTask('SMS sweep', () => sms.sweep(clock.now()).then(() => undefined), new Logger('Sms'));
  }

  onApplicationBootstrap(): void {
    this.sweep.start(SWEEP_INTERVAL_MS);
  }

  onApplicationShutdown(): Promise<void> {
    return this.sweep.stop();
  }
}
