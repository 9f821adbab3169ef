import { Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { AppConfig, Argon2Slots } from '../../config/configuration.js';
import { defaultArgon2Slots } from '../../config/configuration.js';
import { Deadline } from '../load/deadline.js';
import { WorkQueue, type SlotRunner, type WorkQueueStats } from '../load/work-queue.js';
import { Argon2InputError, Argon2Threads } from './argon2-threads.js';

/**
 * The work classes of argon2id, each with slots (threads) no other class can take:
 * - `radius`: verifying a guest's password at login (and the stand-in verification of an unknown
 *   user), at the process's own CPU priority;
 * - `sign-in`: verifying an operator's password in the console, below it;
 * - `hashing`: hashing new passwords (creates, resets, batches, operators), lowest: bulk work that
 *   waits whenever anything else wants the cores.
 */
export type PasswordWorkClass = 'radius' | 'sign-in' | 'hashing';

/**
 * The nice value of each class's threads: 0 keeps the process's priority; the kernel favours lower
 * values (a nice-19 thread gets about 1.5 % of the CPU a nice-0 one gets while both want it).
 */
const NICE: Record<PasswordWorkClass, number> = { radius: 0, 'sign-in': 10, hashing: 19 };

/**
 * How many tasks may wait per slot before more are refused as busy. Logins are bounded by their
 * deadline long before; sign-ins, which nobody bounds, by this (a few tenths of a second of work).
 */
const WAITING_PER_SLOT: Record<PasswordWorkClass, number> = { radius: 64, 'sign-in': 8, hashing: 4096 };

interface PasswordClass {
  queue: WorkQueue;
  threads: Argon2Threads;
}

/**
 * argon2id for every caller, off the event loop, in three work classes (see PasswordWorkClass). One
 * instance per process (CommonModule), so the slots are the process's. Hashing for one request
 * (a batch) holds at most half the hashing slots, so a single create waits behind at most a few
 * of its hashes, never the whole batch. Sign-ins and hashing start no new task while a login's
 * verification runs or waits: argon2id is bound by memory as much as by cores, and a lower CPU
 * priority alone still lets bulk hashing slow a login down.
 */
@Injectable()
export class PasswordHasher implements OnApplicationShutdown {
  private readonly classes: Record<PasswordWorkClass, PasswordClass>;
  private readonly hashingShareSlots: number;
  private standInHash: Promise<string> | null = null;

  constructor(@Optional() config?: ConfigService<AppConfig, true>) {
    const slots: Argon2Slots =
      config?.get('argon2Slots', { infer: true }) ?? defaultArgon2Slots(availableParallelism());
    const make = (name: PasswordWorkClass): PasswordClass => ({
      queue: new WorkQueue(name, slots[name], slots[name] * WAITING_PER_SLOT[name]),
      threads: new Argon2Threads(slots[name], NICE[name]),
    });
    this.classes = { radius: make('radius'), 'sign-in': make('sign-in'), hashing: make('hashing') };
    // Logins first: sign-ins and hashing start nothing new while a login's verification runs or waits.
    this.classes['sign-in'].queue.yieldTo(this.classes.radius.queue);
    this.classes.hashing.queue.yieldTo(this.classes.radius.queue);
    this.hashingShareSlots = Math.max(1, Math.ceil(slots.hashing / 2));
  }

  /** A new password's argon2id hash (PHC string), in the hashing class. */
  hash(password: string, deadline: Deadline = Deadline.none): Promise<string> {
    const { queue, threads } = this.classes.hashing;
    return queue.run((slot) => threads.hash(slot, password), deadline);
  }

  /**
   * The hashes of many passwords (a batch), in order, through a share of the hashing class: at most
   * half its slots at once, each next hash queued behind whatever others queued meanwhile. Stops at
   * the first refusal: when the caller stopped waiting, the rest is not hashed.
   */
  hashAll(passwords: readonly string[], deadline: Deadline = Deadline.none): Promise<string[]> {
    const { queue, threads } = this.classes.hashing;
    const share: SlotRunner = queue.share(this.hashingShareSlots);
    return Promise.all(passwords.map((password) => share((slot) => threads.hash(slot, password), deadline)));
  }

  /**
   * Whether `password` matches `passwordHash`, in the given class. False, never an error, for a hash
   * argon2id cannot read. A class that cannot take the work (full, or the caller gone) rejects with
   * WorkRefusedError: "busy", which callers must never report as a wrong password.
   */
  async verify(
    workClass: 'radius' | 'sign-in',
    passwordHash: string,
    password: string,
    deadline: Deadline = Deadline.none,
  ): Promise<boolean> {
    const { queue, threads } = this.classes[workClass];
    try {
      return await queue.run((slot) => threads.verify(slot, passwordHash, password), deadline);
    } catch (error) {
      if (error instanceof Argon2InputError) return false;
      throw error;
    }
  }

  /** Refuses at once (WorkRefusedError, busy) when the class could not take a task now. */
  checkRoom(workClass: PasswordWorkClass): void {
    this.classes[workClass].queue.checkRoom();
  }

  /**
   * A hash of a random password, made once: verified against when a login or sign-in names nobody,
   * so that costs what a wrong password costs.
   */
  standIn(): Promise<string> {
    if (this.standInHash === null) {
      this.standInHash = this.hash(randomBytes(16).toString('hex'));
      // A failure is retried at the next call rather than kept.
      this.standInHash.catch(() => {
        this.standInHash = null;
      });
    }
    return this.standInHash;
  }

  /** Each class's slots, running and waiting tasks and refusals, for the metrics. */
  stats(): WorkQueueStats[] {
    return Object.values(this.classes).map(({ queue }) => queue.stats());
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(Object.values(this.classes).map(({ threads }) => threads.close()));
  }
}
