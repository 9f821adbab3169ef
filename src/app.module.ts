import { DynamicModule, Module } from '@nestjs/common';
import { AuditRetentionModule } from './audit/audit-retention.module.js';
import { BatchesSweepModule } from './batches/batches-sweep.module.js';
import { BatchesModule } from './batches/batches.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CommonModule } from './common/common.module.js';
import { ConsoleModule } from './console/console.module.js';
import type { AppConfig } from './config/configuration.js';
import { DatabaseModule } from './database/database.module.js';
import { GuestAccessSweepModule } from './guest-access/guest-access-sweep.module.js';
import { HealthModule } from './health/health.module.js';
import { HotspotUsersModule } from './hotspot-users/hotspot-users.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NasModule } from './nas/nas.module.js';
import { OperatorsModule } from './operators/operators.module.js';
import { PhoneVerificationModule } from './phone-verification/phone-verification.module.js';
import { PortalModule } from './portal/portal.module.js';
import { PlansModule } from './plans/plans.module.js';
import { RadiusModule } from './radius/radius.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { SmsModule } from './sms/sms.module.js';
import { UnauthJobsModule } from './unauth-jobs/unauth-jobs.module.js';
import { UsageModule } from './usage/usage.module.js';
import { appConfigModule } from './config/app-config.module.js';

@Module({})
export class AppModule {
  /** The configuration is loaded and validated once (see main.ts) and handed in, so tests can pass their own. */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        appConfigModule(config),
        CommonModule,
        DatabaseModule,
        AuthModule,
        HealthModule,
        HotspotUsersModule,
        SessionsModule,
        UnauthJobsModule,
        NasModule,
        PlansModule,
        BatchesModule,
        OperatorsModule,
        SmsModule,
        PhoneVerificationModule,
        UsageModule,
        RadiusModule,
        AuditRetentionModule,
        BatchesSweepModule,
        ConsoleModule,
        GuestAccessSweepModule,
        PortalModule,
        // Prometheus metrics on a listener of their own, only when METRICS_PORT is set.
        ...(config.metrics.port === null ? [] : [MetricsModule.forRoot(config, 'service')]),
      ],
    };
  }
}
