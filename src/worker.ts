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
  const starting = NestFactory.createApplicationContext(WorkerModule.forRoot(workerConfig), {
    logger: createLogger(config.logLevel, { format: config.logFormat }),
    abortOnError: false,
  });
  // Before start-up finishes: the worker starts polling while the context is still being created,
  // and a SIGTERM then must wait for it and close it, not kill the process midway.
  exitGracefullyOnSignals(async () => (await starting).close(), config.shutdownTimeoutMs, new Logger('Worker'));
  await starting;
}

main().catch((error: unknown) => {
  new Logger('Worker').fatal(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
