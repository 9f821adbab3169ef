import { isStale } from './session-staleness.rules.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const WINDOW = 900_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('isStale', () => {
  it('flags an active session whose last accounting update is older than the window', () => {
    expect(isStale({ status: 'active', lastAccountingAt: ago(WINDOW + 1) }, NOW, WINDOW)).toBe(true);
  });

  it('keeps an active session updated within the window, the boundary included, as the sweep does', () => {
    expect(isStale({ status: 'active', lastAccountingAt: ago(WINDOW) }, NOW, WINDOW)).toBe(false);
    expect(isStale({ status: 'active', lastAccountingAt: ago(1000) }, NOW, WINDOW)).toBe(false);
  });

  it('never flags a session without accounting (the CLI started it)', () => {
    expect(isStale({ status: 'active', lastAccountingAt: null }, NOW, WINDOW)).toBe(false);
  });

  it('never flags an ended session, however old its last update', () => {
    expect(isStale({ status: 'stopped', lastAccountingAt: ago(10 * WINDOW) }, NOW, WINDOW)).toBe(false);
    expect(isStale({ status: 'expired', lastAccountingAt: ago(10 * WINDOW) }, NOW, WINDOW)).toBe(false);
  });
});
