import { CircuitBreaker } from './circuit-breaker.js';

/** A breaker on a hand-moved clock whose probes the test settles one by one. */
function setUp(coolDownMs = 1000) {
  let now = 0;
  const events: string[] = [];
  const probes: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const breaker = new CircuitBreaker({
    coolDownMs,
    now: () => now,
    probe: () =>
      new Promise<void>((resolve, reject) => {
        events.push('probe');
        probes.push({ resolve, reject });
      }),
    onOpen: (error) => events.push(`open: ${(error as Error).message}`),
    onClose: () => events.push('close'),
  });
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { breaker, events, probes, flush, advance: (ms: number) => (now += ms) };
}

describe('CircuitBreaker', () => {
  it('is closed until a failure, which opens it once however many failures follow', () => {
    const { breaker, events } = setUp();
    expect(breaker.closed).toBe(true);
    breaker.failure(new Error('timeout'));
    breaker.failure(new Error('timeout again'));
    expect(breaker.closed).toBe(false);
    expect(events).toEqual(['open: timeout']);
  });

  it('probes once, in the background, when the cool-down is over; success closes it', async () => {
    const { breaker, events, probes, flush, advance } = setUp(1000);
    breaker.failure(new Error('down'));
    advance(999);
    expect(breaker.closed).toBe(false);
    await flush();
    expect(events).toEqual(['open: down']);

    advance(1);
    expect(breaker.closed).toBe(false);
    expect(breaker.closed).toBe(false);
    await flush();
    expect(events).toEqual(['open: down', 'probe']);

    probes[0].resolve();
    await flush();
    expect(events).toEqual(['open: down', 'probe', 'close']);
    expect(breaker.closed).toBe(true);
  });

  it('a failed probe starts another cool-down, silently; the next failure after closing opens it again', async () => {
    const { breaker, events, probes, flush, advance } = setUp(1000);
    breaker.failure(new Error('down'));
    advance(1000);
    expect(breaker.closed).toBe(false);
    await flush();
    probes[0].reject(new Error('still down'));
    await flush();
    expect(breaker.closed).toBe(false);
    advance(999);
    expect(breaker.closed).toBe(false);
    await flush();
    expect(events).toEqual(['open: down', 'probe']);

    advance(1);
    expect(breaker.closed).toBe(false);
    await flush();
    probes[1].resolve();
    await flush();
    expect(breaker.closed).toBe(true);
    breaker.failure(new Error('down again'));
    expect(events).toEqual(['open: down', 'probe', 'probe', 'close', 'open: down again']);
  });
});
