import { Deadline } from './deadline.js';

/** Why a work class did not take a task: its queue was full, or the task's caller had stopped waiting. */
export type WorkRefusal = 'busy' | 'deadline';

/** A task a work class refused; its request is answered 503 (busy), never as if the work had failed. */
export class WorkRefusedError extends Error {
  readonly code = 'WORK_REFUSED';

  constructor(
    readonly workClass: string,
    readonly reason: WorkRefusal,
  ) {
    super(
      reason === 'busy'
        ? `the ${workClass} work class is full: the task was not queued`
        : `the ${workClass} task's caller stopped waiting before a slot was free`,
    );
    this.name = 'WorkRefusedError';
  }
}

/** A work class's figures now and since start, for the metrics. */
export interface WorkQueueStats {
  name: string;
  slots: number;
  running: number;
  waiting: number;
  started: number;
  refused: Record<WorkRefusal, number>;
  /** Seconds the started tasks waited for a slot, in all. */
  waitedSeconds: number;
}

interface Waiter {
  deadline: Deadline;
  enqueuedAt: number;
  start: (slot: number) => void;
  refuse: (reason: WorkRefusal) => void;
}

/** Runs `task` (given its slot) within the queue's slots; see WorkQueue.run. */
export type SlotRunner = <T>(task: (slot: number) => Promise<T>, deadline?: Deadline) => Promise<T>;

/**
 * A work class: a fixed number of slots no other class can take, and a bounded first-in first-out
 * queue in front of them. A task whose caller stops waiting while it is queued leaves without
 * running; a task that finds the queue full is refused at once. Slots are numbered, so that each
 * can own a thread of its own.
 */
export class WorkQueue {
  private readonly free: number[];
  private waiters: Waiter[] = [];
  private head = 0;
  private started = 0;
  private waitedMs = 0;
  private readonly refused: Record<WorkRefusal, number> = { busy: 0, deadline: 0 };

  /** Tasks held back (yielding) while this says so; see yieldWhile(). */
  private yieldingTo: (() => boolean) | null = null;
  /** Queues whose yielding depends on this one's being idle: told when it becomes idle. */
  private readonly yielders: WorkQueue[] = [];

  constructor(
    readonly name: string,
    readonly slots: number,
    /** Tasks that may wait at once; one more is refused as busy. */
    readonly maxWaiting: number,
  ) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`a work class needs at least one slot: ${slots}`);
    this.free = Array.from({ length: slots }, (_, slot) => slots - 1 - slot);
  }

  /**
   * Starts no new task of this class while `first` has tasks running or waiting: bulk work yields to
   * the class that must come first, and goes on in the gaps between its tasks. Tasks already running
   * are not interrupted. (argon2id is bound by memory as much as by cores: a lower CPU priority alone
   * still lets bulk hashing slow a login's verification down.)
   */
  yieldTo(first: WorkQueue): void {
    this.yieldingTo = () => !first.idle();
    first.yielders.push(this);
  }

  /** No task running or waiting. */
  idle(): boolean {
    return this.free.length === this.slots && this.waitingCount() === 0;
  }

  /** Runs `task` in a free slot, now or after the tasks queued before it. */
  run<T>(task: (slot: number) => Promise<T>, deadline: Deadline = Deadline.none): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (deadline.expired()) {
        this.refuse('deadline', reject);
        return;
      }
      const start = (slot: number): void => {
        this.started += 1;
        runTask(task, slot)
          .then(resolve, reject)
          .finally(() => this.release(slot));
      };
      const slot = this.waitingCount() === 0 && !this.yielding() ? this.free.pop() : undefined;
      if (slot !== undefined) {
        start(slot);
        return;
      }
      if (this.waitingCount() >= this.maxWaiting) {
        this.refuse('busy', reject);
        return;
      }
      this.waiters.push({
        deadline,
        enqueuedAt: performance.now(),
        start,
        refuse: (reason) => this.refuse(reason, reject),
      });
    });
  }

  /**
   * A runner that holds at most `cap` of this class's slots at once: its further tasks queue behind
   * the class's queue one at a time, as each of its running tasks ends, so that tasks queued
   * meanwhile by others run between them. One request (a batch) can then never hold the whole class.
   */
  share(cap: number): SlotRunner {
    let running = 0;
    const held: Array<() => void> = [];
    return <T>(task: (slot: number) => Promise<T>, deadline: Deadline = Deadline.none) =>
      new Promise<T>((resolve, reject) => {
        const go = (): void => {
          running += 1;
          this.run(task, deadline)
            .then(resolve, reject)
            .finally(() => {
              running -= 1;
              held.shift()?.();
            });
        };
        if (running < cap) go();
        else held.push(go);
      });
  }

  /**
   * Throws (and counts) the refusal a task would get now for a full queue, so that a caller can skip
   * the work that would come before the task (a sign-in's queries, say) when it would be refused anyway.
   */
  checkRoom(): void {
    const startsNow = this.free.length > 0 && this.waitingCount() === 0 && !this.yielding();
    if (startsNow || this.waitingCount() < this.maxWaiting) return;
    this.refused.busy += 1;
    throw new WorkRefusedError(this.name, 'busy');
  }

  stats(): WorkQueueStats {
    return {
      name: this.name,
      slots: this.slots,
      running: this.slots - this.free.length,
      waiting: this.waitingCount(),
      started: this.started,
      refused: { ...this.refused },
      waitedSeconds: this.waitedMs / 1000,
    };
  }

  /** Hands a freed slot to the oldest waiter whose caller still waits; the others leave refused. */
  private release(slot: number): void {
    this.free.push(slot);
    this.startWaiting();
    if (this.idle()) for (const queue of this.yielders) queue.startWaiting();
  }

  /** Starts waiting tasks on free slots, unless yielding; waiters whose caller stopped waiting leave refused. */
  private startWaiting(): void {
    const now = performance.now();
    while (this.waitingCount() > 0 && this.free.length > 0 && !this.yielding()) {
      const waiter = this.waiters[this.head];
      this.head += 1;
      if (waiter.deadline.expired(now)) {
        waiter.refuse('deadline');
        continue;
      }
      this.compact();
      this.waitedMs += now - waiter.enqueuedAt;
      waiter.start(this.free.pop()!);
    }
    this.compact();
  }

  private yielding(): boolean {
    return this.yieldingTo?.() ?? false;
  }

  private waitingCount(): number {
    return this.waiters.length - this.head;
  }

  /** Drops the served part of the queue now and then, so that it costs O(1) per task. */
  private compact(): void {
    if (this.head === this.waiters.length) {
      this.waiters = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.waiters.length) {
      this.waiters = this.waiters.slice(this.head);
      this.head = 0;
    }
  }

  private refuse(reason: WorkRefusal, reject: (error: unknown) => void): void {
    this.refused[reason] += 1;
    reject(new WorkRefusedError(this.name, reason));
  }
}

/** The task's promise; one that throws before returning one rejects it, and its slot is still given back. */
function runTask<T>(task: (slot: number) => Promise<T>, slot: number): Promise<T> {
  try {
    return task(slot);
  } catch (error) {
    return Promise.reject(error);
  }
}
