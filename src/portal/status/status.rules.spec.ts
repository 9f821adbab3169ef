import { statusView } from './status.rules.js';

describe('statusView', () => {
  it('shows nothing of a plan when there is none', () => {
    expect(statusView(null, null)).toEqual({ validUntil: null, minutesLeft: null, bytesLeft: null, usedUp: false });
  });

  it('rounds the time left down to minutes and never shows less than nothing', () => {
    expect(statusView(1_000, { refused: null, bytesLeft: 5_000, secondsLeft: 119 })).toEqual({
      validUntil: 1_000,
      minutesLeft: 1,
      bytesLeft: 5_000,
      usedUp: false,
    });
    expect(statusView(null, { refused: null, bytesLeft: -4, secondsLeft: -1 })).toMatchObject({
      minutesLeft: 0,
      bytesLeft: 0,
    });
  });

  it('says when the quota is used up', () => {
    expect(statusView(null, { refused: 'quotaExhausted' }).usedUp).toBe(true);
    expect(statusView(null, { refused: 'tooManyDevices' }).usedUp).toBe(false);
  });
});
