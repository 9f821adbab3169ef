import { Deadline } from './deadline.js';
import { WorkQueue, WorkRefusedError } from './work-queue.js';

/** A task that runs until released, recording the slot it was given. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const slots: number[] = [];
  const task = async (slot: number): Promise<number> => {
    slots.push(slot);
    await opened;
    return slot;
  };
  return { task, open, slots };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WorkQueue', () => {
  it('runs at most its slots at once, the others first in, first out', async () => {
    const queue = new WorkQueue('radius', 2, 10);
    const gates = [gate(), gate(), gate(), gate()];
    const order: number[] = [];
    const runs = gates.map((g, index) => queue.run(g.task).then(() => order.push(index)));
    await settle();
    expect(queue.stats()).toMatchObject({ running: 2, waiting: 2, started: 2 });
    gates[1].open();
    await settle();
    // The freed slot went to the third task, not the fourth.
    expect(order).toEqual([1]);
    expect(gates.map((g) => g.slots.length)).toEqual([1, 1, 1, 0]);
    expect(gates[2].slots).toEqual(gates[1].slots);
    expect(queue.stats()).toMatchObject({ running: 2, waiting: 1, started: 3 });
    for (const g of gates) g.open();
    await Promise.all(runs);
    expect(queue.stats()).toMatchObject({ running: 0, waiting: 0, started: 4 });
  });

  it('refuses a task at once when its queue is full, and counts it', async () => {
    const queue = new WorkQueue('sign-in', 1, 1);
    const first = gate();
    const running = queue.run(first.task);
    const waiting = queue.run(async () => 'second');
    await expect(queue.run(async () => 'third')).rejects.toEqual(new WorkRefusedError('sign-in', 'busy'));
    first.open();
    await expect(running).resolves.toBe(0);
    await expect(waiting).resolves.toBe('second');
    expect(queue.stats().refused).toEqual({ busy: 1, deadline: 0 });
  });

  it('never starts a task whose caller stopped waiting, before or while it was queued', async () => {
    const queue = new WorkQueue('radius', 1, 10);
    let started = 0;
    const work = async () => (started += 1);
    await expect(queue.run(work, new Deadline(performance.now() - 1, null))).rejects.toMatchObject({
      reason: 'deadline',
    });
    const first = gate();
    const running = queue.run(first.task);
    let hungUp = false;
    const queued = queue.run(work, new Deadline(Number.POSITIVE_INFINITY, () => hungUp));
    const next = queue.run(work);
    hungUp = true;
    first.open();
    await running;
    await expect(queued).rejects.toMatchObject({ reason: 'deadline' });
    await next;
    expect(started).toBe(1);
    expect(queue.stats().refused).toEqual({ busy: 0, deadline: 2 });
  });

  it('gives the slot back when a task throws before returning its promise', async () => {
    const queue = new WorkQueue('hashing', 1, 10);
    await expect(
      queue.run(() => {
        throw new Error('broken');
      }),
    ).rejects.toThrow('broken');
    await expect(queue.run(async (slot) => slot)).resolves.toBe(0);
  });

  it('a share holds at most its cap of slots, and tasks queued meanwhile run between its own', async () => {
    const queue = new WorkQueue('hashing', 1, 100);
    const share = queue.share(1);
    const order: string[] = [];
    const gates = [gate(), gate(), gate()];
    const batch = gates.map((g, index) => share((slot) => g.task(slot).then(() => order.push(`batch ${index}`))));
    await settle();
    // The batch's second and third wait in its share, not in the class's queue.
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 0 });
    const single = queue.run(async () => order.push('single'));
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 1 });
    gates[0].open();
    await settle();
    // The single task, queued while the batch's first ran, ran before the batch's second.
    expect(order).toEqual(['batch 0', 'single']);
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 0 });
    gates[1].open();
    gates[2].open();
    await Promise.all([...batch, single]);
    expect(order).toEqual(['batch 0', 'single', 'batch 1', 'batch 2']);
  });

  it('checkRoom() refuses, and counts, exactly when a task would find the queue full', async () => {
    const queue = new WorkQueue('sign-in', 1, 1);
    expect(() => queue.checkRoom()).not.toThrow();
    const first = gate();
    const running = queue.run(first.task);
    expect(() => queue.checkRoom()).not.toThrow();
    const waiting = queue.run(async () => 'waited');
    expect(() => queue.checkRoom()).toThrow(new WorkRefusedError('sign-in', 'busy'));
    expect(queue.stats().refused.busy).toBe(1);
    first.open();
    await Promise.all([running, waiting]);
    expect(() => queue.checkRoom()).not.toThrow();
  });

  it('a class that yields starts nothing new while the first class has tasks running or waiting, then goes on', async () => {
    const first = new WorkQueue('radius', 1, 10);
    const bulk = new WorkQueue('hashing', 2, 10);
    bulk.yieldTo(first);
    const order: string[] = [];
    const login = gate();
    const bulkRunning = gate();
    const running = bulk.run(bulkRunning.task);
    const verifying = first.run(login.task);
    const held = bulk.run(async () => order.push('held'));
    await settle();
    // A bulk task already running goes on; the new one waits although a slot is free.
    expect(bulk.stats()).toMatchObject({ running: 1, waiting: 1 });
    expect(() => bulk.checkRoom()).not.toThrow();
    login.open();
    await verifying;
    await held;
    expect(order).toEqual(['held']);
    bulkRunning.open();
    await running;
    await settle();
    expect(first.idle() && bulk.idle()).toBe(true);
  });

  it('needs a slot', () => {
    expect(() => new WorkQueue('radius', 0, 1)).toThrow(RangeError);
  });
});
