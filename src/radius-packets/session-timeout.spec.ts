import { sessionTimeout } from './session-timeout.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');

describe('sessionTimeout', () => {
  it('counts the seconds until expiresAt, rounded up, at least 1 and at most the cap; the cap without expiresAt', () => {
    expect(sessionTimeout(null, NOW, 86_400)).toBe(86_400);
    expect(sessionTimeout(new Date(NOW.getTime() + 90_500), NOW, 86_400)).toBe(91);
    expect(sessionTimeout(new Date(NOW.getTime() + 10 * 86_400_000), NOW, 86_400)).toBe(86_400);
    expect(sessionTimeout(new Date(NOW.getTime() + 10), NOW, 86_400)).toBe(1);
    expect(sessionTimeout(new Date(NOW.getTime() - 5000), NOW, 86_400)).toBe(1);
  });
});
