import { DynamicModule, Module } from '@nestjs/common';
import { CommonModule } from './common/common.module.js';
import type { AppConfig } from './config/configuration.js';
import { DatabaseModule } from './database/database.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NasModule } from './nas/nas.module.js';
import { SmsModule } from './sms/sms.module.js';
import { UnauthJobsModule } from './unauth-jobs/unauth-jobs.module.js';
import { appConfigModule } from './config/app-config.module.js';

/**
 * What `npm run worker` runs: the unauth job worker (with the NAS registry it signs packets with) and
 * the SMS sender, no HTTP.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        appConfigModule(config),
        CommonModule,
        DatabaseModule,
        NasModule,
        UnauthJobsModule,
        SmsModule,
        // The worker's own metrics listener (its own METRICS_PORT), when set.
        ...(config.metrics.port === null ? [] : [MetricsModule.forRoot(config, 'worker')]),
      ],
    };
  }
}
