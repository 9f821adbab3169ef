import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { LogDispatcher } from './dispatchers/log.dispatcher.js';
import { NAS_DIRECTORY, type NasDirectory } from './dispatchers/radius/nas-directory.js';
import { RadiusDispatcher } from './dispatchers/radius/radius.dispatcher.js';
import { UNAUTH_DISPATCHERS, type UnauthDispatcher } from './dispatchers/unauth-dispatcher.js';
import { WebhookDispatcher } from './dispatchers/webhook.dispatcher.js';
import { UnauthJobWorker } from './unauth-job-worker.service.js';
import { UnauthJobsRepository } from './unauth-jobs.repository.js';
import { UnauthJobsService } from './unauth-jobs.service.js';
import { UNAUTH_JOBS_OBSERVER, type UnauthJobsObserver } from './unauth-jobs-observer.js';

/**
 * The outbox of unauth jobs and the worker that delivers them through the configured dispatchers.
 * The RADIUS dispatcher reads the NAS registry through NAS_DIRECTORY, which the (global) NAS module
 * provides; a process without it (a CLI command) cannot send Disconnects.
 */
@Module({
  imports: [SessionsModule],
  providers: [
    UnauthJobsRepository,
    UnauthJobsService,
    UnauthJobWorker,
    {
      provide: UNAUTH_DISPATCHERS,
      inject: [
        ConfigService,
        Clock,
        { token: NAS_DIRECTORY, optional: true },
        { token: UNAUTH_JOBS_OBSERVER, optional: true },
      ],
      useFactory: (
        config: ConfigService<AppConfig, true>,
        clock: Clock,
        nases?: NasDirectory,
        observer?: UnauthJobsObserver,
      ): UnauthDispatcher[] => {
        const { maxSessionSeconds } = config.get('radius', { infer: true });
        return config.get('unauthJobs', { infer: true }).dispatchers.map((dispatcher) => {
          switch (dispatcher.type) {
            case 'webhook':
              return new WebhookDispatcher(dispatcher, () => clock.now());
            case 'radius':
              return new RadiusDispatcher(
                nases ?? null,
                { ...dispatcher, maxSessionSeconds },
                () => clock.now(),
                observer ?? null,
              );
            case 'log':
              return new LogDispatcher();
          }
        });
      },
    },
  ],
  exports: [UnauthJobsService, UnauthJobWorker],
})
export class UnauthJobsModule {}
