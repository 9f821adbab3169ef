import { admissionProblemKey, codeProblemKey, phoneProblemKey, sendProblemOf, shownPhone } from './sms.rules.js';

describe('portal SMS screen rules', () => {
  const now = new Date('2026-11-28T10:00:00.000Z');

  it('answers a refused send with 429 and the seconds to wait, never which limit', () => {
    expect(sendProblemOf({ outcome: 'too-soon', retryAt: new Date('2026-11-28T10:00:42.300Z') }, now)).toEqual({
      key: 'sms.problem.tooSoon',
      status: 429,
      seconds: 43,
    });
    expect(sendProblemOf({ outcome: 'limited', retryAt: now }, now)).toEqual({
      key: 'sms.problem.limited',
      status: 429,
      seconds: 1,
    });
  });

  it('names each problem of a phone, a code and an admission', () => {
    expect(phoneProblemKey('international')).toBe('sms.problem.phone.international');
    expect(codeProblemKey({ outcome: 'wrong', triesLeft: 3 })).toBe('sms.problem.wrong');
    expect(codeProblemKey({ outcome: 'wrong', triesLeft: 1 })).toBe('sms.problem.wrongLast');
    expect(codeProblemKey({ outcome: 'locked' })).toBe('sms.problem.locked');
    expect(codeProblemKey({ outcome: 'expired' })).toBe('sms.problem.expired');
    expect(admissionProblemKey('blocked')).toBe('sms.problem.blocked');
    expect(admissionProblemKey('termsNotAccepted')).toBe('portal.problem.terms');
    expect(admissionProblemKey('wayNotOffered')).toBe('sms.problem.notOffered');
  });

  it('shows the number back with its middle hidden', () => {
    expect(shownPhone('+905551234567')).toBe('+90 ••• 67');
  });
});
