import type { EntityManager } from 'typeorm';
import type { DatabaseService } from '../database/database.service.js';
import type {
  InterimReport,
  InterimStanding,
  InterimTarget,
  InterimWrite,
  SessionsRepository,
} from '../sessions/sessions.repository.js';
import {
  appliedInterims,
  interimWritesOf,
  InterimUpdateBatcher,
  MAX_INTERIM_BATCH,
  MAX_INTERIM_BATCHES_IN_FLIGHT,
  nextInterimBatch,
} from './interim-update-batcher.js';

const REPORT: InterimReport = { inputOctets: '10', outputOctets: '20', sessionTime: 30, ipAddress: null };
const NOW = new Date('2026-11-24T12:00:00.000Z');

function target(session: string, macAddress = '02:00:00:00:00:01', nasClientId = 'nas-1'): InterimTarget {
  return { nasClientId, accountingUniqueId: session, owner: { userId: `user-of-${session}` }, macAddress };
}

function packet(session: string, macAddress?: string) {
  return { target: target(session, macAddress), report: REPORT, now: NOW };
}

describe('nextInterimBatch', () => {
  it('takes packets in arrival order up to the limit and leaves the rest', () => {
    const pending = ['a', 'b', 'c'].map((session) => packet(session));
    const { batch, rest } = nextInterimBatch(pending, 2);
    expect(batch.map((p) => p.target.accountingUniqueId)).toEqual(['a', 'b']);
    expect(rest.map((p) => p.target.accountingUniqueId)).toEqual(['c']);
  });

  it('keeps a second packet about the same session for the next batch', () => {
    const pending = [packet('a'), packet('b'), packet('a'), packet('c')];
    const { batch, rest } = nextInterimBatch(pending, 10);
    expect(batch.map((p) => p.target.accountingUniqueId)).toEqual(['a', 'b', 'c']);
    expect(rest).toEqual([pending[2]]);
  });

  it('tells sessions of different NASes with the same accounting id apart', () => {
    const other = { ...packet('a'), target: target('a', undefined, 'nas-2') };
    expect(nextInterimBatch([packet('a'), other], 10).batch).toHaveLength(2);
  });
});

describe('interimWritesOf', () => {
  const standing = (index: number, deviceKnown: boolean): InterimStanding => ({
    index,
    sessionId: `s${index}`,
    userId: `u${index}`,
    deviceKnown,
  });

  it('writes the standing sessions whose device is known or absent, and no others', () => {
    const batch = [packet('a'), packet('b'), packet('c', ''), packet('d')];
    const writes = interimWritesOf(batch, [standing(0, true), standing(1, false), standing(2, false)]);
    expect(writes).toEqual([
      { index: 0, sessionId: 's0', userId: 'u0', macAddress: '02:00:00:00:00:01', report: REPORT, now: NOW },
      { index: 2, sessionId: 's2', userId: 'u2', macAddress: '', report: REPORT, now: NOW },
    ]);
  });
});

describe('interimWritesOf, one device twice', () => {
  it('writes a device once per batch and sends the second session on it down the general path', () => {
    const batch = [packet('a'), packet('b'), packet('c', '02:00:00:00:00:02')];
    const sameUser = (index: number): InterimStanding => ({
      index,
      sessionId: `s${index}`,
      userId: 'u',
      deviceKnown: true,
    });
    expect(interimWritesOf(batch, [sameUser(0), sameUser(1), sameUser(2)]).map((write) => write.index)).toEqual([0, 2]);
  });
});

describe('appliedInterims', () => {
  const writes = [
    { index: 0, macAddress: '02:00:00:00:00:01' },
    { index: 2, macAddress: '' },
  ];

  it('applies every written packet when the write matched each session and each named device', () => {
    expect(appliedInterims(3, writes, 3)).toEqual([true, false, true]);
  });

  it('applies none when a row was missing, since the count cannot say which', () => {
    expect(appliedInterims(3, writes, 2)).toEqual([false, false, false]);
  });

  it('applies none when nothing was written', () => {
    expect(appliedInterims(2, [], 0)).toEqual([false, false]);
  });
});

describe('InterimUpdateBatcher', () => {
  /** A repository whose sessions all stand with known devices, recording what each batch read and wrote. */
  function fakeSessions(options: { matched?: (writes: readonly InterimWrite[]) => number; fail?: Error } = {}) {
    const batches: string[][] = [];
    let running = 0;
    let mostRunning = 0;
    const sessions = {
      findStandingOfActive: async (
        _em: EntityManager,
        targets: readonly { target: InterimTarget }[],
      ): Promise<InterimStanding[]> => {
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        batches.push(targets.map(({ target }) => target.accountingUniqueId));
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (options.fail !== undefined) throw options.fail;
        return targets.map(({ target }, index) => ({
          index,
          sessionId: `session-${target.accountingUniqueId}`,
          userId: `user-${target.accountingUniqueId}`,
          deviceKnown: true,
        }));
      },
      reportOnStanding: (_em: EntityManager, writes: readonly InterimWrite[]): Promise<number> =>
        Promise.resolve(options.matched?.(writes) ?? writes.length * 2),
    };
    return { sessions: sessions as unknown as SessionsRepository, batches, mostRunning: () => mostRunning };
  }

  const database = {
    supportsRowLocks: true,
    run: <T>(work: (em: EntityManager) => Promise<T>) => work({} as EntityManager),
  } as unknown as DatabaseService;

  it('writes packets that arrive together in one batch and tells each it was applied', async () => {
    const fake = fakeSessions();
    const batcher = new InterimUpdateBatcher(database, fake.sessions);
    const results = await Promise.all(['a', 'b', 'c'].map((s) => batcher.report(target(s), REPORT, NOW)));
    expect(results).toEqual([true, true, true]);
    expect(fake.batches).toEqual([['a', 'b', 'c']]);
  });

  it('splits a burst into batches of at most MAX_INTERIM_BATCH, with a bounded number under way', async () => {
    const fake = fakeSessions();
    const batcher = new InterimUpdateBatcher(database, fake.sessions);
    const count = MAX_INTERIM_BATCH * (MAX_INTERIM_BATCHES_IN_FLIGHT + 2) + 1;
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) => batcher.report(target(`s${i}`), REPORT, NOW)),
    );
    expect(results.every(Boolean)).toBe(true);
    expect(fake.batches.flat()).toHaveLength(count);
    expect(Math.max(...fake.batches.map((batch) => batch.length))).toBe(MAX_INTERIM_BATCH);
    expect(fake.mostRunning()).toBe(MAX_INTERIM_BATCHES_IN_FLIGHT);
  });

  it('puts a second packet about one session into a later batch', async () => {
    const fake = fakeSessions();
    const batcher = new InterimUpdateBatcher(database, fake.sessions);
    const results = await Promise.all(['a', 'a', 'b'].map((s) => batcher.report(target(s), REPORT, NOW)));
    expect(results).toEqual([true, true, true]);
    expect(fake.batches).toEqual([['a', 'b'], ['a']]);
  });

  it('sends the whole batch down the general path when the write missed a row', async () => {
    const fake = fakeSessions({ matched: (writes) => writes.length * 2 - 1 });
    const batcher = new InterimUpdateBatcher(database, fake.sessions);
    const results = await Promise.all(['a', 'b'].map((s) => batcher.report(target(s), REPORT, NOW)));
    expect(results).toEqual([false, false]);
  });

  it("fails every packet of a batch with the database's error", async () => {
    const outage = new Error('connection lost');
    const batcher = new InterimUpdateBatcher(database, fakeSessions({ fail: outage }).sessions);
    const results = await Promise.allSettled(['a', 'b'].map((s) => batcher.report(target(s), REPORT, NOW)));
    expect(results).toEqual([
      { status: 'rejected', reason: outage },
      { status: 'rejected', reason: outage },
    ]);
  });
});
