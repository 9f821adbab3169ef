import type { LoggerService } from '@nestjs/common';

/**
 * Background work run every `intervalMs` in a process of the service (a sweep, a fold): never twice
 * at once (a tick while the previous run goes on is skipped), and never keeping the process alive.
 * A failed run is logged at warn as "<what> failed: <message>"; the next tick runs as usual.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly what: string,
    private readonly work: () => Promise<void>,
    private readonly logger: LoggerService,
  ) {}

  /** Starts ticking; an interval of 0 or less leaves the task off. */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  /** No further ticks; resolves once a run under way is over. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running !== null) return;
    this.running = this.work()
      .catch((error: unknown) =>
        this.logger.warn(`${this.what} failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
