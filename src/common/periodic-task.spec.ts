import type { LoggerService } from '@nestjs/common';
import { PeriodicTask } from './periodic-task.js';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function recordingLogger(): LoggerService & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, log: () => undefined, error: () => undefined, warn: (message: string) => warnings.push(message) };
}

describe('PeriodicTask', () => {
  it('runs the work on every tick, never twice at once, and stop waits for the run under way', async () => {
    let runs = 0;
    let inFlight = 0;
    let overlapped = false;
    let finished = 0;
    const task = new PeriodicTask(
      'Slow work',
      async () => {
        runs += 1;
        inFlight += 1;
        overlapped ||= inFlight > 1;
        await sleep(45);
        inFlight -= 1;
        finished += 1;
      },
      recordingLogger(),
    );
    task.start(10);
    await sleep(200);
    await task.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(overlapped).toBe(false);
    expect(finished).toBe(runs);
    await sleep(50);
    expect(runs).toBe(finished);
  });

  it('logs a failed run at warn and goes on ticking', async () => {
    const logger = recordingLogger();
    let runs = 0;
    const task = new PeriodicTask(
      'Flaky work',
      () => {
        runs += 1;
        return Promise.reject(new Error(`run ${runs} broke`));
      },
      logger,
    );
    task.start(10);
    await sleep(60);
    await task.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(logger.warnings[0]).toBe('Flaky work failed: run 1 broke');
  });

  it('stays off with an interval of 0', async () => {
    let runs = 0;
    const task = new PeriodicTask(
      'Off',
      () => {
        runs += 1;
        return Promise.resolve();
      },
      recordingLogger(),
    );
    task.start(0);
    await sleep(30);
    await task.stop();
    expect(runs).toBe(0);
  });
});
