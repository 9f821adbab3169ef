/**
 * When the caller of a request stops waiting for its answer: the time it said it would wait, or the
 * moment it hung up. Work not started by then is not started at all, since nobody would read its
 * result; checked where work would begin (a database unit, an argon2id slot), never in the middle
 * of a transaction. Times are `performance.now()` milliseconds.
 */
export class Deadline {
  /** No deadline: work always starts. */
  static readonly none = new Deadline(Number.POSITIVE_INFINITY, null);

  constructor(
    /** performance.now() at which the caller stops waiting; Infinity when it never said. */
    readonly at: number,
    /** Whether the caller has hung up (its connection closed); null when that cannot be known. */
    private readonly hungUp: (() => boolean) | null,
  ) {}

  expired(now: number = performance.now()): boolean {
    return now >= this.at || (this.hungUp?.() ?? false);
  }

  /** Throws DeadlineExceededError when the caller no longer waits; `stage` names where (for the metrics). */
  check(stage: DeadlineStage): void {
    if (this.expired()) throw new DeadlineExceededError(stage);
  }
}

/** Where work was refused because its caller had stopped waiting. */
export type DeadlineStage = 'admission' | 'database' | 'argon2';

/** The caller no longer waits for this answer: answered 503 at once, nothing done. */
export class DeadlineExceededError extends Error {
  readonly code = 'DEADLINE_EXCEEDED';

  constructor(readonly stage: DeadlineStage) {
    super(`the caller stopped waiting before the work began (${stage})`);
    this.name = 'DeadlineExceededError';
  }
}
