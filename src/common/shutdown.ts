import type { LoggerService } from '@nestjs/common';

/**
 * On SIGTERM or SIGINT runs `shutdown` once, then exits; if it takes longer than `timeoutMs` the
 * process exits anyway with code 1, so an orchestrator never waits on a stuck shutdown.
 */
export function exitGracefullyOnSignals(shutdown: () => Promise<void>, timeoutMs: number, logger: LoggerService): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.log(`${signal} received: shutting down (at most ${timeoutMs} ms)`);
    setTimeout(() => {
      logger.error(`Shutdown took longer than ${timeoutMs} ms: exiting now`);
      process.exit(1);
    }, timeoutMs).unref();
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
