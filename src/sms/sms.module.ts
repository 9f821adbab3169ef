import { Module } from '@nestjs/common';
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

/** SMS delivery: the outbox, its sender loop, the gateway of SMS_GATEWAY and its delivery reports. */
@Module({
  controllers: [SmsReportsController],
  providers: [
    SmsRepository,
    SmsService,
    SmsSender,
    {
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
    },
  ],
  exports: [SmsService, SmsSender],
})
export class SmsModule {}
