import { REJECT_MESSAGES } from '../../radius/radius.rules.js';
import { attemptOutcomeFilter, outcomesOf, pageNumber, reasonKey } from './logins.rules.js';

describe('login attempt filters', () => {
  it('shows rejections unless asked otherwise', () => {
    expect(attemptOutcomeFilter('')).toBe('rejected');
    expect(attemptOutcomeFilter('nonsense')).toBe('rejected');
    expect(outcomesOf('rejected')).toEqual(['reject', 'unknown']);
    expect(outcomesOf(attemptOutcomeFilter('accepted'))).toEqual(['accept']);
    expect(outcomesOf(attemptOutcomeFilter('all'))).toEqual(['accept', 'reject', 'unknown']);
  });

  it('names every reject reason authorize records, and none for anything else', () => {
    for (const reason of Object.keys(REJECT_MESSAGES))
      expect(reasonKey('reject', reason)).toBe(`logins.reason.${reason}`);
    expect(reasonKey('reject', null)).toBe('logins.reason.none');
    expect(reasonKey('reject', 'made-up')).toBe('logins.reason.none');
    expect(reasonKey('accept', null)).toBe('logins.reason.accepted');
  });

  it('reads a page number safely', () => {
    expect(pageNumber('', 100)).toBe(1);
    expect(pageNumber('0', 100)).toBe(1);
    expect(pageNumber('3', 100)).toBe(3);
    expect(pageNumber('99999', 100)).toBe(100);
    expect(pageNumber('-2', 100)).toBe(1);
    expect(pageNumber('1e9', 100)).toBe(1);
  });
});
