import { DatabaseBusyError, isLockConflict } from '../common/errors/database-errors.js';
import { backoffDelayMs, retryOnContention, type RetryPolicy, type RetryTimer } from './contention-retry.js';

const driverError = (message: string, code: string, errno: number) =>
  Object.assign(new Error(message), { driverError: { code, errno } });
const deadlock = () => driverError('Query failed', 'ER_LOCK_DEADLOCK', 1213);
const lockWaitTimeout = () => Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT' });
const duplicateKey = () => driverError('Duplicate entry', 'ER_DUP_ENTRY', 1062);

const POLICY: RetryPolicy = { maxAttempts: 5, deadlineMs: Number.POSITIVE_INFINITY, baseDelayMs: 20, maxDelayMs: 100 };

/** A clock that only moves when the code under test sleeps; it records each sleep. */
function fakeTimer(random = 1): RetryTimer & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    random: () => random,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** Work that fails with the given errors, in order, then answers 'done'; it counts its calls. */
function failingThen(errors: Array<() => Error>): { work: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    work: async () => {
      const next = errors[calls];
      calls += 1;
      if (next !== undefined) throw next();
      return 'done';
    },
    calls: () => calls,
  };
}

describe('retryOnContention', () => {
  it('runs the work again after a deadlock and a lock wait timeout, waiting longer each time', async () => {
    const timer = fakeTimer();
    const { work, calls } = failingThen([deadlock, lockWaitTimeout, deadlock]);
    await expect(retryOnContention(work, isLockConflict, POLICY, timer)).resolves.toBe('done');
    expect(calls()).toBe(4);
    expect(timer.sleeps).toEqual([20, 40, 80]);
  });

  it('randomises each wait to between half and all of its ceiling, which is capped', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(POLICY, attempt, () => 1))).toEqual([20, 40, 80, 100, 100]);
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(POLICY, attempt, () => 0))).toEqual([10, 20, 40, 50, 50]);
  });

  it.each([
    ['a duplicate key (a 409, never contention)', duplicateKey],
    ['a bug', () => new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a lost connection', () => Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' })],
  ])('does not retry %s: it is thrown as it is', async (_case, error) => {
    const timer = fakeTimer();
    const { work, calls } = failingThen([error]);
    const failure = await retryOnContention(work, isLockConflict, POLICY, timer).catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(DatabaseBusyError);
    expect((failure as Error).message).toBe(error().message);
    expect(calls()).toBe(1);
    expect(timer.sleeps).toEqual([]);
  });

  it('gives up after maxAttempts with DatabaseBusyError, a 503 with Retry-After, keeping the cause', async () => {
    const timer = fakeTimer();
    const { work, calls } = failingThen(Array.from({ length: 10 }, () => deadlock));
    const failure = await retryOnContention(work, isLockConflict, POLICY, timer).catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(DatabaseBusyError);
    expect(failure).toMatchObject({ code: 'DB_BUSY', retryAfterSeconds: 1 });
    expect((failure as DatabaseBusyError).cause).toMatchObject({ driverError: { code: 'ER_LOCK_DEADLOCK' } });
    expect(calls()).toBe(POLICY.maxAttempts);
    expect(timer.sleeps).toHaveLength(POLICY.maxAttempts - 1);
  });

  it('with a deadline, keeps trying until it, the last try at the deadline itself, then gives up', async () => {
    const timer = fakeTimer();
    const policy: RetryPolicy = { maxAttempts: Infinity, deadlineMs: 500, baseDelayMs: 10, maxDelayMs: 200 };
    const { work, calls } = failingThen(Array.from({ length: 100 }, () => deadlock));
    await expect(retryOnContention(work, isLockConflict, policy, timer)).rejects.toBeInstanceOf(DatabaseBusyError);
    expect(timer.sleeps).toEqual([10, 20, 40, 80, 160, 190]);
    expect(timer.now()).toBe(500);
    expect(calls()).toBe(7);
  });

  it('succeeds on the last try allowed', async () => {
    const timer = fakeTimer(0.5);
    const { work } = failingThen(Array.from({ length: POLICY.maxAttempts - 1 }, () => deadlock));
    await expect(retryOnContention(work, isLockConflict, POLICY, timer)).resolves.toBe('done');
  });
});
