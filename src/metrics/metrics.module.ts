import {
  Global,
  Module,
  RequestMethod,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
} from '@nestjs/common';
import type { AppConfig } from '../config/configuration.js';
import { EXPIRY_OBSERVER } from '../hotspot-users/expiry-observer.js';
import { RADIUS_OBSERVER } from '../radius/radius-observer.js';
import { SMS_OBSERVER } from '../sms/sms-observer.js';
import { UNAUTH_JOBS_OBSERVER } from '../unauth-jobs/unauth-jobs-observer.js';
import { DatabaseMetricsCollector } from './database-metrics.collector.js';
import { HotspotMetrics } from './hotspot-metrics.js';
import { HttpMetricsMiddleware } from './http-metrics.middleware.js';
import { LoadMetricsCollector } from './load-metrics.collector.js';
import { MetricsObservers } from './metrics-observers.js';
import { MetricsServer } from './metrics-server.js';
import { METRICS_SETTINGS, type MetricsSettings } from './metrics-settings.js';
import { MetricsRepository } from './metrics.repository.js';

/**
 * Prometheus metrics (loaded only when METRICS_PORT is set). Global, so that the features below,
 * which define the observer interfaces and never import this module, find their observers
 * (RADIUS_OBSERVER, UNAUTH_JOBS_OBSERVER, EXPIRY_OBSERVER, SMS_OBSERVER) as the unauth jobs find NAS_DIRECTORY.
 */
@Global()
@Module({})
export class MetricsModule implements NestModule {
  static forRoot(config: AppConfig, role: 'service' | 'worker'): DynamicModule {
    if (config.metrics.port === null) throw new Error('MetricsModule needs METRICS_PORT');
    const settings: MetricsSettings = {
      port: config.metrics.port,
      host: config.metrics.host,
      maxVenueLabels: config.metrics.maxVenueLabels,
      databaseReadMs: config.metrics.databaseReadMs,
      role,
      interimSeconds: config.radius.interimSeconds,
    };
    return {
      module: MetricsModule,
      providers: [
        { provide: METRICS_SETTINGS, useValue: settings },
        { provide: HotspotMetrics, useFactory: () => new HotspotMetrics(role, settings.interimSeconds) },
        MetricsRepository,
        DatabaseMetricsCollector,
        LoadMetricsCollector,
        MetricsObservers,
        MetricsServer,
        HttpMetricsMiddleware,
        { provide: RADIUS_OBSERVER, useExisting: MetricsObservers },
        { provide: UNAUTH_JOBS_OBSERVER, useExisting: MetricsObservers },
        { provide: EXPIRY_OBSERVER, useExisting: MetricsObservers },
        { provide: SMS_OBSERVER, useExisting: MetricsObservers },
      ],
      exports: [HotspotMetrics, MetricsServer, RADIUS_OBSERVER, UNAUTH_JOBS_OBSERVER, EXPIRY_OBSERVER, SMS_OBSERVER],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
