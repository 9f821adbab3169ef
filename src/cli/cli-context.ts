import 'reflect-metadata';
import {
  Module,
  type DynamicModule,
  type INestApplicationContext,
  type LoggerService,
  type ModuleMetadata,
  type Provider,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { format, parseArgs } from 'node:util';
import { pino } from 'pino';
import { CommonModule } from '../common/common.module.js';
import { createLogger } from '../app.setup.js';
import { ConfigValidationError, type AppConfig, type LogLevel } from '../config/configuration.js';
import { readEnvironmentConfig } from '../config/environment.js';
import { DatabaseModule } from '../database/database.module.js';
import { appConfigModule } from '../config/app-config.module.js';

/**
 * Shared plumbing of the project's command-line tools (token, session, jobs).
 *
 * Contract (docs/DECISIONS, "Command-line contract"): a command's result goes to stdout, every log
 * line to stderr, so `VALUE=$(node dist/src/cli/token.js create …)` captures the result alone.
 * Exit codes: 0 success, 1 failure (not found, database error), 2 bad usage.
 */

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Where a command writes; process.stdout/process.stderr in production, buffers in tests. */
export interface CliOutput {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
}

/** A command-line mistake: the message goes to stderr and the process exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The CLI's logger. Nest's start-up chatter ("… dependencies initialized") is info-level noise for a
 * command, so LOG_LEVEL=info shows warnings and errors only; debug and verbose show everything.
 */
export function createCliLogger(config: AppConfig): LoggerService {
  const level: LogLevel = config.logLevel === 'info' ? 'warn' : config.logLevel;
  // File descriptor 2: every log line of a command goes to stderr, as JSON like the service's.
  return createLogger(level, pino.destination(2));
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
export class CliModule {
  /**
   * Configuration, common services and the database, as AppModule.forRoot wires them, plus what the
   * command needs. No HTTP layer, no guards, and not AuthModule: its BootstrapTokenService would
   * store or print a bootstrap token as a side effect of running a command.
   */
  static forRoot(
    config: AppConfig,
    extra: { imports?: ModuleMetadata['imports']; providers?: Provider[] } = {},
  ): DynamicModule {
    return {
      module: CliModule,
      imports: [
        appConfigModule(config),
        CommonModule,
        DatabaseModule,
        ...(extra.imports ?? []),
      ],
      providers: extra.providers ?? [],
    };
  }
}

/** Boots a Nest application context (database connected, pending migrations run unless disabled). */
export async function createCliContext(
  config: AppConfig,
  extra: { imports?: ModuleMetadata['imports']; providers?: Provider[]; logger?: LoggerService | false } = {},
): Promise<INestApplicationContext> {
  // A command never runs the background work of the service (job worker, expiry sweep).
  const commandConfig: AppConfig = {
    ...config,
    unauthJobs: { ...config.unauthJobs, workerEnabled: false },
    expirySweepIntervalMs: 0,
  };
  return NestFactory.createApplicationContext(CliModule.forRoot(commandConfig, extra), {
    logger: extra.logger ?? createCliLogger(config),
    abortOnError: false,
  });
}

/**
 * Runs a command-line tool: routes console output to stderr, loads the configuration, lets
 * `parse` refuse bad usage before anything connects, boots the context, runs the command, closes
 * the context and sets the exit code.
 */
export async function runCli<P>(options: {
  argv: string[];
  io?: CliIo;
  parse: (argv: string[]) => P;
  /** Commands that need no database (help) return an exit code here; null means "boot and run". */
  withoutContext?: (parsed: P, io: CliIo) => number | null;
  extra: { imports?: ModuleMetadata['imports']; providers?: Provider[] };
  run: (parsed: P, io: CliIo, context: INestApplicationContext) => Promise<number>;
}): Promise<number> {
  const io: CliIo = options.io ?? { stdout: process.stdout, stderr: process.stderr };
  routeConsoleToStderr();

  let parsed: P;
  try {
    parsed = options.parse(options.argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  const early = options.withoutContext?.(parsed, io) ?? null;
  if (early !== null) return early;

  let config: AppConfig;
  try {
    config = readEnvironmentConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }

  let context: INestApplicationContext;
  try {
    context = await createCliContext(config, options.extra);
  } catch (error) {
    io.stderr.write(`Could not start: ${describeError(error)}\n`);
    return EXIT_FAILURE;
  }
  try {
    return await options.run(parsed, io, context);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`Failed: ${describeError(error)}\n`);
    return EXIT_FAILURE;
  } finally {
    await context.close();
  }
}

/** Sets the process exit code from a CLI's main(); a crash prints its stack on stderr. */
export function exitWith(main: Promise<number>): void {
  main.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}

/** Reads the options of a subcommand: each at most once, no unknown ones. Throws UsageError. */
export function parseCommandOptions(
  args: string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(Object.entries(options).map(([key, spec]) => [key, { ...spec, multiple: true }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(describeError(error));
  }
  const values: Record<string, string | boolean | undefined> = {};
  for (const [key, given] of Object.entries(parsed.values)) {
    const list = given as Array<string | boolean>;
    if (list.length > 1) throw new UsageError(`--${key} may be given only once`);
    values[key] = list[0];
  }
  return { values, positionals: parsed.positionals };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
