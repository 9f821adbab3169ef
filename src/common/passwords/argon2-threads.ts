import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** argon2id with OWASP's minimum: 19 MiB, 2 iterations, parallelism 1. */
export const ARGON2ID_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The code of each thread: argon2id's synchronous calls, one job at a time. It lowers its own CPU
 * priority first (Linux applies a nice value to one thread when given its id: /proc/thread-self),
 * so that under contention the kernel runs higher-priority threads (RADIUS verifications, the event
 * loop, the database) first. Where that cannot be done the thread runs at the process's priority.
 * Plain JavaScript evaluated in the thread, so it runs the same from the sources and the build.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
if (workerData.nice > 0) {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(tid, workerData.nice);
  } catch {}
}
parentPort.on('message', (job) => {
  let answer;
  try {
    answer = job.op === 'hash'
      ? { id: job.id, value: argon2.hashSync(job.password, workerData.options) }
      : { id: job.id, value: argon2.verifySync(job.hash, job.password) };
  } catch {
    answer = { id: job.id, failed: true };
  }
  parentPort.postMessage(answer);
});
`;

const ARGON2_MODULE = createRequire(import.meta.url).resolve('@node-rs/argon2');

type Job = { op: 'hash'; password: string } | { op: 'verify'; hash: string; password: string };
type Answer = { id: number; value: string | boolean } | { id: number; failed: true };

/** argon2id could not read the stored hash (verify), or refused the input (hash). */
export class Argon2InputError extends Error {
  constructor() {
    super('argon2id refused the input');
    this.name = 'Argon2InputError';
  }
}

interface Thread {
  worker: Worker;
  pending: { id: number; resolve: (value: string | boolean) => void; reject: (error: Error) => void } | null;
}

/**
 * One thread per slot of a work class, started on first use at that class's CPU priority. A slot
 * runs one job at a time (its WorkQueue sees to that). An idle thread does not keep the process
 * alive; a thread that dies fails its job and is started again for the next one.
 */
export class Argon2Threads {
  private readonly threads: Array<Thread | undefined>;
  private nextId = 0;
  private closed = false;

  constructor(
    readonly slots: number,
    /** The threads' nice value (0: the process's own priority; higher runs later under contention). */
    private readonly nice: number,
  ) {
    this.threads = Array.from({ length: slots }, () => undefined);
  }

  hash(slot: number, password: string): Promise<string> {
    return this.run(slot, { op: 'hash', password }) as Promise<string>;
  }

  verify(slot: number, hash: string, password: string): Promise<boolean> {
    return this.run(slot, { op: 'verify', hash, password }) as Promise<boolean>;
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.filter((thread): thread is Thread => thread !== undefined);
    this.threads.fill(undefined);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private run(slot: number, job: Job): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('the argon2id threads are closed'));
    const thread = this.threads[slot] ?? this.start(slot);
    if (thread.pending !== null) return Promise.reject(new Error(`argon2id slot ${slot} is already busy`));
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      thread.pending = { id, resolve, reject };
      thread.worker.ref();
      thread.worker.postMessage({ id, ...job });
    });
  }

  private start(slot: number): Thread {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { argon2: ARGON2_MODULE, options: ARGON2ID_OPTIONS, nice: this.nice },
    });
    const thread: Thread = { worker, pending: null };
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const pending = thread.pending;
      if (pending === null || pending.id !== answer.id) return;
      thread.pending = null;
      worker.unref();
      if ('failed' in answer) pending.reject(new Argon2InputError());
      else pending.resolve(answer.value);
    });
    const fail = (error: Error): void => {
      if (this.threads[slot] === thread) this.threads[slot] = undefined;
      const pending = thread.pending;
      thread.pending = null;
      pending?.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`an argon2id thread stopped (exit code ${code})`)));
    this.threads[slot] = thread;
    return thread;
  }
}
