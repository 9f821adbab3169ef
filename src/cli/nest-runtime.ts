import 'reflect-metadata';
import {
  Logger,
  Module,
  type DynamicModule,
  type INestApplicationContext,
  type LoggerService,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { format } from 'node:util';
import { createLogger } from '../app.setup.js';
import { CommonModule } from '../common/common.module.js';
import { appConfigModule } from '../config/app-config.module.js';
import { ConfigValidationError, type AppConfig, type LogLevel } from '../config/configuration.js';
import { readEnvironmentConfig } from '../config/environment.js';
import { DatabaseModule } from '../database/database.module.js';
import { CommandFailure, type CliRuntime, type ServiceNeed } from './command.js';

/**
 * The CLI's logger. Nest's start-up chatter ("… dependencies initialized") is info-level noise for a
 * command, so LOG_LEVEL=info shows warnings and errors only; debug and verbose show everything.
 */
function createCliLogger(config: AppConfig): LoggerService {
  const level: LogLevel = config.logLevel === 'info' ? 'warn' : config.logLevel;
  // File descriptor 2: every log line of a command goes to stderr, in the service's format (LOG_FORMAT).
  return createLogger(level, { format: config.logFormat, fd: 2 });
}

/**
 * TypeORM's console logger writes migration and info lines with console.log: inside a CLI process
 * those belong on stderr. Returns a function that restores the original methods.
 */
export function routeConsoleToStderr(): () => void {
  const original = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, original);
}

@Module({})
class CliModule {
  /**
   * Configuration, common services and the database, as AppModule.forRoot wires them, plus what the
   * command needs. No HTTP layer, no guards, and not AuthModule: its BootstrapTokenService would
   * store or print a bootstrap token as a side effect of running a command.
   */
  static forRoot(
    config: AppConfig,
    extra: { imports?: ModuleMetadata['imports']; providers?: Provider[] },
  ): DynamicModule {
    return {
      module: CliModule,
      imports: [appConfigModule(config), CommonModule, DatabaseModule, ...(extra.imports ?? [])],
      providers: extra.providers ?? [],
    };
  }
}

/** Boots a Nest application context (database connected, pending migrations run unless disabled). */
async function createCliContext(
  config: AppConfig,
  extra: { imports?: ModuleMetadata['imports']; providers?: Provider[] },
): Promise<INestApplicationContext> {
  // A command never runs the background work of the service (job worker, expiry sweep, counter folds).
  const commandConfig: AppConfig = {
    ...config,
    unauthJobs: { ...config.unauthJobs, workerEnabled: false },
    expirySweepIntervalMs: 0,
    countFoldIntervalMs: 0,
    usageSweepIntervalMs: 0,
  };
  return NestFactory.createApplicationContext(CliModule.forRoot(commandConfig, extra), {
    logger: createCliLogger(config),
    abortOnError: false,
  });
}

/** The SQLite file a command is about to create (its absolute path), or null. */
function sqliteFileToCreate(config: AppConfig): string | null {
  const { database } = config;
  if (database.type !== 'sqlite' || database.path === ':memory:') return null;
  const path = resolve(database.path);
  return existsSync(path) ? null : path;
}

/**
 * The runtime of the `hotspot` executable: each command boots its own application context on the
 * configured database (environment and `.env`) and closes it when done.
 */
export function nestRuntime(readConfig: () => AppConfig = readEnvironmentConfig): CliRuntime {
  return {
    now: () => new Date(),
    async use<S, R>(need: ServiceNeed<S>, work: (service: S) => Promise<R>): Promise<R> {
      const restoreConsole = routeConsoleToStderr();
      try {
        let config: AppConfig;
        try {
          config = readConfig();
        } catch (error) {
          if (error instanceof ConfigValidationError) throw new CommandFailure(error.message);
          throw error;
        }
        const newSqliteFile = sqliteFileToCreate(config);
        let context: INestApplicationContext;
        try {
          context = await createCliContext(config, need);
        } catch (error) {
          throw new CommandFailure(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
        }
        // A mistyped path would otherwise go unnoticed: the command works, on a database of its own.
        if (newSqliteFile !== null) {
          new Logger('Database').warn(
            `There was no database at ${newSqliteFile}: created a new, empty one (check DATABASE_URL if you meant an existing one)`,
          );
        }
        try {
          return await work(need.resolve(context));
        } finally {
          await context.close();
        }
      } finally {
        restoreConsole();
      }
    },
  };
}
