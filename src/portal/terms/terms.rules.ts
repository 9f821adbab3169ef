import type { AdmissionRefusal } from '../../guest-access/guest-access.service.js';

/** A plain text's paragraphs: split on blank lines, each trimmed, empty ones dropped. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

export function termsProblemKey(reason: AdmissionRefusal): string {
  switch (reason) {
    case 'noDevice':
      return 'terms.problem.noDevice';
    case 'blocked':
      return 'terms.problem.blocked';
    default:
      return 'portal.problem.terms';
  }
}
