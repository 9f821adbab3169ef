import { DEFAULT_PASSWORD_LENGTH, DEFAULT_PREFIX, type BatchRequest } from '../../batches/batch.rules.js';
import { wallDateTime } from '../../web/zoned-time.js';

/** The create form as typed: every field text. */
export const BATCH_FORM_FIELDS = [
  'venueId',
  'count',
  'prefix',
  'passwordLength',
  'expiresAt',
  'validForHours',
  'planId',
  'label',
] as const;

/** The inputs of the create form, in its order: name, input type, whether it must be filled (each has a help text). */
export const BATCH_FORM_INPUTS = [
  ['count', 'number', true],
  ['expiresAt', 'datetime-local', false],
  ['validForHours', 'number', false],
  ['planId', 'select', false],
  ['prefix', 'text', false],
  ['passwordLength', 'number', false],
  ['label', 'text', false],
] as const satisfies ReadonlyArray<readonly [Exclude<(typeof BATCH_FORM_FIELDS)[number], 'venueId'>, string, boolean]>;

/** The confirmed actions on a batch: each has a confirmation page. */
export const BATCH_ACTIONS = ['print', 'export'] as const;

/** The batch form's values, as typed (`validForHours`: whole hours from each account's first login, instead of expiresAt). */
export type BatchForm = Record<(typeof BATCH_FORM_FIELDS)[number], string>;

export interface BatchFormProblem {
  field: string;
  key: string;
}

/**
 * A v1 refusal of one field of a batch, in the form's words: the form's field (`validFor` is typed
 * as hours) with `batches.invalid.<field>` (`batches.invalid.prefixTaken` for a prefix without free
 * names), never the API's field name; a field the form does not have keeps the API's text.
 */
export function batchApiProblem(
  status: number,
  field: string,
  text: string,
): { field: string | null; key: string | null; text: string | null } {
  const name = field === 'validFor' ? 'validForHours' : field;
  if (!BATCH_FORM_INPUTS.some(([input]) => input === name)) return { field: null, key: null, text };
  if (status === 409 && name === 'prefix') return { field: name, key: 'batches.invalid.prefixTaken', text: null };
  return { field: name, key: `batches.invalid.${name}`, text: null };
}

const WHOLE_NUMBER = /^\d{1,4}$/;

/**
 * The form as a batch request, or the problems to show beside its fields. `expiresAt` is a local
 * time in the operator's zone; the service checks the ranges (count, length, prefix, label) again.
 */
export function batchRequestOf(
  form: BatchForm,
  zone: string | null,
): { request: BatchRequest | null; problems: BatchFormProblem[] } {
  const problems: BatchFormProblem[] = [];
  const count = WHOLE_NUMBER.test(form.count.trim()) ? Number(form.count.trim()) : NaN;
  if (!(count >= 1 && count <= 1000)) problems.push({ field: 'count', key: 'batches.problem.count' });
  const lengthText = form.passwordLength.trim();
  const passwordLength =
    lengthText === '' ? DEFAULT_PASSWORD_LENGTH : WHOLE_NUMBER.test(lengthText) ? Number(lengthText) : NaN;
  if (!(passwordLength >= 8 && passwordLength <= 12))
    problems.push({ field: 'passwordLength', key: 'batches.problem.passwordLength' });
  const prefix = form.prefix.trim() === '' ? DEFAULT_PREFIX : form.prefix.trim();
  if (!/^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,15})?$/.test(prefix))
    problems.push({ field: 'prefix', key: 'batches.problem.prefix' });
  const expiryText = form.expiresAt.trim();
  const hoursText = form.validForHours.trim();
  const expiresAt = expiryText === '' ? null : wallDateTime(expiryText, zone);
  const hours = hoursText === '' ? null : WHOLE_NUMBER.test(hoursText) ? Number(hoursText) : NaN;
  if (expiryText !== '' && hoursText !== '') problems.push({ field: 'validForHours', key: 'batches.problem.both' });
  else if (expiryText === '' && hoursText === '')
    problems.push({ field: 'expiresAt', key: 'batches.problem.validity' });
  else if (expiryText !== '' && expiresAt === null)
    problems.push({ field: 'expiresAt', key: 'batches.problem.expiresAt' });
  else if (hours !== null && !(hours >= 1 && hours <= 8784))
    problems.push({ field: 'validForHours', key: 'batches.problem.validForHours' });
  const label = form.label.trim();
  if (label.length > 100) problems.push({ field: 'label', key: 'batches.problem.label' });
  if (problems.length > 0) return { request: null, problems };
  return {
    request: {
      venueId: form.venueId,
      count,
      prefix,
      passwordLength,
      expiresAt,
      validFor: hours === null ? null : hours * 3600,
      label: label === '' ? null : label,
      planId: form.planId.trim() === '' ? null : form.planId.trim(),
    },
    problems,
  };
}
