import type { AdmissionRefusal } from '../../guest-access/guest-access.service.js';
import type { CodeCheck, CodeRequest } from '../../phone-verification/phone-verification.service.js';
import type { PhoneProblem } from '../../phone-verification/phone-verification.rules.js';

/** A refused send's message and status: 429 for a limit or the resend pause, with the seconds to wait. */
export function sendProblemOf(
  refusal: Exclude<CodeRequest, { outcome: 'sent' }>,
  now: Date,
): { key: string; status: number; seconds: number } {
  const seconds = Math.max(1, Math.ceil((refusal.retryAt.getTime() - now.getTime()) / 1000));
  return { key: refusal.outcome === 'too-soon' ? 'sms.problem.tooSoon' : 'sms.problem.limited', status: 429, seconds };
}

export function phoneProblemKey(problem: PhoneProblem): string {
  return `sms.problem.phone.${problem}`;
}

/** The message of a code that did not verify. */
export function codeProblemKey(check: Exclude<CodeCheck, { outcome: 'verified' }>): string {
  switch (check.outcome) {
    case 'wrong':
      return check.triesLeft === 1 ? 'sms.problem.wrongLast' : 'sms.problem.wrong';
    case 'locked':
      return 'sms.problem.locked';
    case 'expired':
      return 'sms.problem.expired';
  }
}

/** The message of a verified phone whose admission was refused (a user blocked by staff, terms changed). */
export function admissionProblemKey(reason: AdmissionRefusal): string {
  switch (reason) {
    case 'blocked':
      return 'sms.problem.blocked';
    case 'termsNotAccepted':
      return 'portal.problem.terms';
    default:
      return 'sms.problem.notOffered';
  }
}

/** The number as the code page shows it back: its country code and last two digits. */
export function shownPhone(e164: string): string {
  return `${e164.slice(0, 3)} ••• ${e164.slice(-2)}`;
}
