import type { AdmissionRefusal } from '../../guest-access/guest-access.service.js';

/** The voucher form as typed: a username and password, or a single code, or nothing usable. */
export type VoucherForm =
  { kind: 'pair'; username: string; password: string } | { kind: 'code'; code: string } | { kind: 'empty' };

/** The pair when both are typed, else the single code when typed; blanks around the username are dropped. */
export function voucherForm(fields: { username: string; password: string; code: string }): VoucherForm {
  const username = fields.username.trim();
  if (username !== '' && fields.password !== '') return { kind: 'pair', username, password: fields.password };
  const code = fields.code.trim();
  if (code !== '') return { kind: 'code', code };
  return { kind: 'empty' };
}

/** The message of a refused voucher. A voucher that does not exist and a wrong password read the same. */
export function voucherProblemKey(reason: AdmissionRefusal): string {
  switch (reason) {
    case 'termsNotAccepted':
      return 'portal.problem.terms';
    case 'blocked':
      return 'voucher.problem.blocked';
    case 'expired':
      return 'voucher.problem.expired';
    default:
      return 'voucher.problem.invalidVoucher';
  }
}
