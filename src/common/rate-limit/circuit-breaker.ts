export interface CircuitBreakerOptions {
  /** How long the breaker stays open after a failure before a probe may close it. */
  coolDownMs: number;
  /** Checks in the background whether the protected service answers again; resolves when it does. */
  probe: () => Promise<unknown>;
  /** Called once each time the breaker opens. */
  onOpen: (error: unknown) => void;
  /** Called once each time a probe closes it again. */
  onClose: () => void;
  /** Milliseconds, for the cool-down; replaceable in tests. */
  now?: () => number;
}

/**
 * Keeps callers away from a service that stopped answering. Closed, calls go to the service; the
 * first failure opens it, and for the cool-down callers use their fallback at once instead of each
 * waiting for a timeout. When the cool-down is over, the next caller that asks starts one probe in
 * the background (still using the fallback itself): success closes the breaker, failure starts
 * another cool-down. No caller ever waits on a probe.
 */
export class CircuitBreaker {
  private open = false;
  private openUntil = 0;
  private probing = false;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Whether calls may go to the service now. */
  get closed(): boolean {
    if (!this.open) return true;
    if (!this.probing && this.now() >= this.openUntil) this.startProbe();
    return false;
  }

  /** Reports a failed call. Failures of calls made before the breaker opened change nothing more. */
  failure(error: unknown): void {
    if (this.open) return;
    this.open = true;
    this.openUntil = this.now() + this.options.coolDownMs;
    this.options.onOpen(error);
  }

  private startProbe(): void {
    this.probing = true;
    Promise.resolve()
      .then(() => this.options.probe())
      .then(
        () => {
          this.probing = false;
          this.open = false;
          this.options.onClose();
        },
        () => {
          this.probing = false;
          this.openUntil = this.now() + this.options.coolDownMs;
        },
      );
  }
}
