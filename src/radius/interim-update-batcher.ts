import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Deadline, DeadlineExceededError } from '../common/load/deadline.js';
import { DatabaseService } from '../database/database.service.js';
import {
  SessionsRepository,
  type InterimReport,
  type InterimStanding,
  type InterimTarget,
  type InterimWrite,
} from '../sessions/sessions.repository.js';

/** Packets per batch: one branch each in the read, one row each in the write (SQLite allows 500 branches). */
export const MAX_INTERIM_BATCH = 64;
/** Batches under way at once; packets arriving meanwhile wait for the next one. */
export const MAX_INTERIM_BATCHES_IN_FLIGHT = 4;

/** One packet's Interim-Update waiting for its batch, and how to tell the packet what became of it. */
export interface PendingInterim {
  target: InterimTarget;
  report: InterimReport;
  now: Date;
  /** FreeRADIUS's: a packet whose deadline passed while it waited for its batch leaves without it. */
  deadline: Deadline;
  settle(applied: boolean): void;
  fail(error: unknown): void;
}

/**
 * The common Interim-Update (an active session of an active user, a device the user already has)
 * for many packets at once: the packets that arrive while earlier batches are under way are read
 * together in one statement and written together in another, instead of two statements each. A
 * busy NAS fleet sends mostly these, and on a database server every statement costs a round trip
 * and a socket write on both sides. Each packet learns whether its update was applied; one that was
 * not (its session unknown or ended, its user no longer active, its device new, or the batch's
 * write not matching every row it expected) takes the general path, which applies the same
 * counters again harmlessly (they never fall). An error of the database fails every packet of the
 * batch, as it would have failed each alone.
 */
@Injectable()
export class InterimUpdateBatcher {
  private pending: PendingInterim[] = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(
    private readonly database: DatabaseService,
    private readonly sessions: SessionsRepository,
  ) {}

  /** Whether the update was applied; false when the packet must take the general path. */
  report(
    target: InterimTarget,
    report: InterimReport,
    now: Date,
    deadline: Deadline = Deadline.none,
  ): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      this.pending.push({ target, report, now, deadline, settle, fail });
      this.scheduleFlush();
    });
  }

  /** A batch starts once the current turn of the event loop has queued what it received. */
  private scheduleFlush(): void {
    if (this.flushScheduled || this.pending.length === 0 || this.inFlight >= MAX_INTERIM_BATCHES_IN_FLIGHT) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const now = performance.now();
    const waiting = this.pending.filter((packet) => {
      if (!packet.deadline.expired(now)) return true;
      packet.fail(new DeadlineExceededError('database'));
      return false;
    });
    const { batch, rest } = nextInterimBatch(waiting, MAX_INTERIM_BATCH);
    this.pending = rest;
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.scheduleFlush();
    try {
      const applied = await this.apply(batch);
      batch.forEach((packet, index) => packet.settle(applied[index]));
    } catch (error) {
      for (const packet of batch) packet.fail(error);
    } finally {
      this.inFlight -= 1;
      this.scheduleFlush();
    }
  }

  private apply(batch: readonly PendingInterim[]): Promise<boolean[]> {
    const work = async (em: EntityManager): Promise<boolean[]> => {
      const standings = await this.sessions.findStandingOfActive(em, batch);
      const writes = interimWritesOf(batch, standings);
      const matched = await this.sessions.reportOnStanding(em, writes);
      return appliedInterims(batch.length, writes, matched);
    };
    // MySQL: no transaction (the write checks again that each session is active); SQLite's two UPDATEs need one.
    const lane = { lane: 'radius' } as const;
    return this.database.supportsRowLocks ? this.database.run(work, lane) : this.database.transaction(work, lane);
  }
}

/**
 * The next batch: up to `limit` packets in arrival order, at most one per session (a second packet
 * about a session waits for the next batch, so that each session gets one row in the write).
 */
export function nextInterimBatch<T extends { target: InterimTarget }>(
  pending: readonly T[],
  limit: number,
): { batch: T[]; rest: T[] } {
  const batch: T[] = [];
  const rest: T[] = [];
  const sessions = new Set<string>();
  for (const packet of pending) {
    const key = `${packet.target.nasClientId}\u0000${packet.target.accountingUniqueId}`;
    if (batch.length === limit || sessions.has(key)) {
      rest.push(packet);
      continue;
    }
    sessions.add(key);
    batch.push(packet);
  }
  return { batch, rest };
}

/**
 * The writes for the packets whose session stands and whose device, if any, the user already has.
 * Each device is written once per batch: a second session of the same user on the same device
 * (two NASes, say) takes the general path, so that every row the write expects is distinct.
 */
export function interimWritesOf(
  batch: readonly { target: InterimTarget; report: InterimReport; now: Date }[],
  standings: readonly InterimStanding[],
): (InterimWrite & { index: number })[] {
  const devices = new Set<string>();
  const writes: (InterimWrite & { index: number })[] = [];
  for (const { index, sessionId, userId, deviceKnown } of standings) {
    const { target, report, now } = batch[index];
    const { macAddress } = target;
    if (macAddress !== '') {
      const device = `${userId}\u0000${macAddress}`;
      if (!deviceKnown || devices.has(device)) continue;
      devices.add(device);
    }
    writes.push({ index, sessionId, userId, macAddress, report, now });
  }
  return writes;
}

/**
 * Which packets of a batch of `size` were applied: those written, when the write matched every
 * session and every device it named; none otherwise, since the count cannot say which row was
 * missing (a session ended, or a device removed, since the read).
 */
export function appliedInterims(
  size: number,
  writes: readonly { index: number; macAddress: string }[],
  matched: number,
): boolean[] {
  const applied = new Array<boolean>(size).fill(false);
  const expected = writes.length + writes.filter((write) => write.macAddress !== '').length;
  if (writes.length > 0 && matched === expected) for (const { index } of writes) applied[index] = true;
  return applied;
}
