import { Global, Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/configuration.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { DatabaseService } from './database.service.js';
import { initializeDataSource } from './migrations.js';

const migrationLogger = new Logger('Migrations');

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        ...buildDataSourceOptions(config.get('database', { infer: true }), {
          migrationsRun: config.get('migrationsRun', { infer: true }),
          poolSize: config.get('databasePoolSize', { infer: true }),
          timeoutMs: config.get('databaseTimeoutMs', { infer: true }),
        }),
        // Fail start-up at once rather than retrying for half a minute, and without a misleading
        // "Retrying (1)..." line: the start-up error says what went wrong.
        toRetry: () => false,
      }),
      // Pending migrations run under a lock, so instances starting together apply each one once.
      dataSourceFactory: (options) =>
        initializeDataSource(options!, { onWait: (message) => migrationLogger.warn(message) }),
    }),
  ],
  providers: [DatabaseService],
  exports: [DatabaseService],
})
export class DatabaseModule {}
