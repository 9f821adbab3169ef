import { Deadline, DeadlineExceededError } from './deadline.js';

describe('Deadline', () => {
  it('has passed at its time, or once the caller hung up', () => {
    const now = performance.now();
    expect(new Deadline(now + 1000, null).expired(now)).toBe(false);
    expect(new Deadline(now + 1000, null).expired(now + 1000)).toBe(true);
    let hungUp = false;
    const deadline = new Deadline(Number.POSITIVE_INFINITY, () => hungUp);
    expect(deadline.expired()).toBe(false);
    hungUp = true;
    expect(deadline.expired()).toBe(true);
    expect(Deadline.none.expired(Number.MAX_VALUE)).toBe(false);
  });

  it('check() throws where the work would have begun', () => {
    expect(() => new Deadline(0, null).check('database')).toThrow(new DeadlineExceededError('database'));
    expect(() => Deadline.none.check('argon2')).not.toThrow();
  });
});
