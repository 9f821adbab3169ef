import { voucherForm, voucherProblemKey } from './voucher.rules.js';

describe('voucherForm', () => {
  it('takes the pair when both are typed, else the code, else nothing', () => {
    expect(voucherForm({ username: ' guest-1 ', password: 'pw', code: 'x-y' })).toEqual({
      kind: 'pair',
      username: 'guest-1',
      password: 'pw',
    });
    expect(voucherForm({ username: 'guest-1', password: '', code: ' a-b ' })).toEqual({ kind: 'code', code: 'a-b' });
    expect(voucherForm({ username: '', password: '', code: '  ' })).toEqual({ kind: 'empty' });
  });
});

describe('voucherProblemKey', () => {
  it('answers an unknown voucher as a wrong password', () => {
    expect(voucherProblemKey('invalidVoucher')).toBe('voucher.problem.invalidVoucher');
    expect(voucherProblemKey('wayNotOffered')).toBe('voucher.problem.invalidVoucher');
    expect(voucherProblemKey('termsNotAccepted')).toBe('portal.problem.terms');
    expect(voucherProblemKey('expired')).toBe('voucher.problem.expired');
    expect(voucherProblemKey('blocked')).toBe('voucher.problem.blocked');
  });
});
