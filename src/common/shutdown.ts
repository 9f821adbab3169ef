import type { LoggerService } from '@nestjs/common';

/**
 * On SIGTERM or SIGINT runs `shutdown` once, then exits; if it takes longer than `timeoutMs` the
 * process exits anyway with code 1, so an orchestrator never waits on a stuck shutdown. A signal
 * repeated meanwhile (an impatient orchestrator, a second Ctrl-C) is logged and changes nothing: the
 * handlers stay in place, so Node's default (exit at once) never cuts the shutdown short. The last
 * log line says the process stopped, and how.
 */
export function exitGracefullyOnSignals(shutdown: () => Promise<void>, timeoutMs: number, logger: LoggerService): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      logger.log(`${signal} received again: the shutdown under way goes on`);
      return;
    }
    started = true;
    logger.log(`${signal} received: shutting down (at most ${timeoutMs} ms)`);
    const stopped = (code: 0 | 1): never => {
      if (code === 0) logger.log('Stopped');
      else logger.error('Stopped with exit code 1');
      process.exit(code);
    };
    setTimeout(() => {
      logger.error(`Shutdown took longer than ${timeoutMs} ms: exiting now`);
      stopped(1);
    }, timeoutMs).unref();
    shutdown().then(
      () => stopped(0),
      (error: unknown) => {
        logger.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        stopped(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
