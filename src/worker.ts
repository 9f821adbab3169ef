import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger } from './app.setup.js';
import { exitGracefullyOnSignals } from './common/shutdown.js';
import { readProcessConfig } from './config/environment.js';
import { WorkerModule } from './worker.module.js';

/** A process that only delivers unauth jobs (`npm run worker`); run as many as needed. */
async function main(): Promise<void> {
  const config = readProcessConfig();
  const workerConfig = { ...config, unauthJobs: { ...config.unauthJobs, workerEnabled: true } };
  const context = await NestFactory.createApplicationContext(WorkerModule.forRoot(workerConfig), {
    logger: createLogger(config.logLevel, { format: config.logFormat }),
    abortOnError: false,
  });
  exitGracefullyOnSignals(() => context.close(), config.shutdownTimeoutMs, new Logger('Worker'));
}

main().catch((error: unknown) => {
  new Logger('Worker').fatal(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
