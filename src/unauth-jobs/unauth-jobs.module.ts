import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { LogDispatcher } from './dispatchers/log.dispatcher.js';
import { UNAUTH_DISPATCHER, type UnauthDispatcher } from './dispatchers/unauth-dispatcher.js';
import { WebhookDispatcher } from './dispatchers/webhook.dispatcher.js';
import { UnauthJobWorker } from './unauth-job-worker.service.js';
import { UnauthJobsRepository } from './unauth-jobs.repository.js';
import { UnauthJobsService } from './unauth-jobs.service.js';

/** The outbox of unauth jobs and the worker that delivers them through the configured dispatcher. */
@Module({
  providers: [
    UnauthJobsRepository,
    UnauthJobsService,
    UnauthJobWorker,
    {
      provide: UNAUTH_DISPATCHER,
      inject: [ConfigService, Clock],
      useFactory: (config: ConfigService<AppConfig, true>, clock: Clock): UnauthDispatcher => {
        const dispatcher = config.get('unauthJobs', { infer: true }).dispatcher;
        return dispatcher.type === 'webhook' ? new WebhookDispatcher(dispatcher, () => clock.now()) : new LogDispatcher();
      },
    },
  ],
  exports: [UnauthJobsService, UnauthJobWorker],
})
export class UnauthJobsModule {}
