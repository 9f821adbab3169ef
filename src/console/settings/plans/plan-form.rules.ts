import type { PlanDto } from '../../../plans/dto/plan.response.js';
import { QUOTA_PERIODS, type QuotaPeriod } from '../../../plans/plan-limits.js';
import { LIMIT_RANGES, type NumericPlanLimit, type PlanFields } from '../../../plans/plan.rules.js';
import { durationWords, type Words } from '../../network/usage-view.js';

/**
 * The plans screen's pure parts: the form in the units an operator thinks in (Mbit/s, MB or GB,
 * minutes, hours) read into the API's (bit/s, bytes, seconds) and back, each problem beside its field,
 * and a plan's limits as the list shows them.
 */

/** The form's fields, every one text as typed (venues come from the picker's checkboxes). */
export const PLAN_FORM_FIELDS = [
  'name',
  'downloadMbit',
  'uploadMbit',
  'quota',
  'quotaUnit',
  'quotaPeriod',
  'dailyMinutes',
  'totalHours',
  'idleMinutes',
  'maxSessions',
  'maxDevices',
  'interimMinutes',
] as const;

export type PlanFormField = (typeof PLAN_FORM_FIELDS)[number];
export type PlanForm = Record<PlanFormField, string>;

/** The units a data quota is typed in (decimal, as the console shows byte counts). */
export const QUOTA_UNITS = { MB: 1_000_000, GB: 1_000_000_000 } as const;
export type QuotaUnit = keyof typeof QUOTA_UNITS;

/**
 * Each number the form takes: the limit it sets, how many of the API's units one typed unit is, and
 * whether it must be whole (a count, or minutes) or may have decimals (a rate, an amount of data, hours).
 */
export const LIMIT_INPUTS: ReadonlyArray<{
  field: Exclude<PlanFormField, 'name' | 'quotaUnit' | 'quotaPeriod'>;
  limit: NumericPlanLimit;
  factor: number;
  whole: boolean;
}> = [
  { field: 'downloadMbit', limit: 'downloadRate', factor: 1_000_000, whole: false },
  { field: 'uploadMbit', limit: 'uploadRate', factor: 1_000_000, whole: false },
  { field: 'quota', limit: 'quotaBytes', factor: QUOTA_UNITS.MB, whole: false },
  { field: 'dailyMinutes', limit: 'dailyTimeSeconds', factor: 60, whole: true },
  { field: 'totalHours', limit: 'totalTimeSeconds', factor: 3600, whole: false },
  { field: 'idleMinutes', limit: 'idleTimeoutSeconds', factor: 60, whole: true },
  { field: 'maxSessions', limit: 'maxSessions', factor: 1, whole: true },
  { field: 'maxDevices', limit: 'maxDevices', factor: 1, whole: true },
  { field: 'interimMinutes', limit: 'interimIntervalSeconds', factor: 60, whole: true },
];

/** A problem of the form: the field it is beside (`venueIds`: the picker) and its catalogue key. */
export interface PlanFormProblem {
  field: PlanFormField | 'venueIds';
  key: string;
}

const WHOLE = /^\d{1,13}$/;
const DECIMAL = /^\d{1,13}(?:[.,]\d{1,6})?$/;

export function emptyPlanForm(): PlanForm {
  return Object.fromEntries(
    PLAN_FORM_FIELDS.map((name) => [name, name === 'quotaUnit' ? 'GB' : '']),
  ) as unknown as PlanForm;
}

/**
 * The plan's fields from the form, or every problem of it at once: each number within the API's
 * range (LIMIT_RANGES, in the form's units), a quota with its period and a period only with a quota,
 * a name, at least one venue. An empty number is no limit.
 */
export function planFieldsOf(
  form: PlanForm,
  venueIds: readonly string[],
): { fields: PlanFields | null; problems: PlanFormProblem[] } {
  const problems: PlanFormProblem[] = [];
  const name = form.name.trim();
  if (name === '' || [...name].length > 100 || /[\p{Cc}\p{Cf}]/u.test(name)) {
    problems.push({ field: 'name', key: 'plans.problem.name' });
  }
  if (venueIds.length === 0) problems.push({ field: 'venueIds', key: 'plans.problem.venueIds' });
  const unit: QuotaUnit = form.quotaUnit === 'MB' ? 'MB' : 'GB';
  const limits = {} as Record<NumericPlanLimit, number | null>;
  for (const input of LIMIT_INPUTS) {
    const text = form[input.field].trim();
    if (text === '') {
      limits[input.limit] = null;
      continue;
    }
    const factor = input.field === 'quota' ? QUOTA_UNITS[unit] : input.factor;
    const value = (input.whole ? WHOLE : DECIMAL).test(text)
      ? Math.round(Number(text.replace(',', '.')) * factor)
      : NaN;
    const range = LIMIT_RANGES[input.limit];
    if (!(value >= range.min && value <= range.max)) {
      problems.push({ field: input.field, key: `plans.problem.${input.field}` });
      limits[input.limit] = null;
    } else limits[input.limit] = value;
  }
  const period = (QUOTA_PERIODS as readonly string[]).includes(form.quotaPeriod)
    ? (form.quotaPeriod as QuotaPeriod)
    : null;
  const quotaTyped = form.quota.trim() !== '';
  if (quotaTyped !== (period !== null)) problems.push({ field: 'quotaPeriod', key: 'plans.problem.quotaPeriod' });
  if (problems.length > 0) return { fields: null, problems };
  return { fields: { name, venueIds: [...venueIds], ...limits, quotaPeriod: period }, problems };
}

/** A plan's limits in the form's units (a quota in GB when it is whole gigabytes' worth or more, else MB). */
export function planFormOf(plan: PlanDto): PlanForm {
  const form = emptyPlanForm();
  form.name = plan.name;
  for (const input of LIMIT_INPUTS) {
    const value = plan[input.limit];
    if (value === null) continue;
    let factor = input.factor;
    if (input.field === 'quota') {
      form.quotaUnit = value >= QUOTA_UNITS.GB ? 'GB' : 'MB';
      factor = QUOTA_UNITS[form.quotaUnit as QuotaUnit];
    }
    form[input.field] = decimalText(value / factor);
  }
  form.quotaPeriod = plan.quotaPeriod ?? '';
  return form;
}

/** A number as the form shows it: at most six decimals, none trailing. */
function decimalText(value: number): string {
  return String(Number(value.toFixed(6)));
}

/** A rate in bit/s as Mbit/s (at most three decimals). */
export function mbitText(bitsPerSecond: number): string {
  return String(Number((bitsPerSecond / 1_000_000).toFixed(3)));
}

/**
 * One limit as the list names it: a message (`plans.limit.*`) with its values; `duration` and `bytes`
 * are put into it by the view, in the page's language (as `time` and `amount`).
 */
export interface LimitWords extends Words {
  duration?: Words;
  bytes?: number;
}

/** A plan's limits as the list names them, in the form's order; none set: "no limits". */
export function limitWords(plan: PlanDto): LimitWords[] {
  const shown: LimitWords[] = [];
  if (plan.downloadRate !== null || plan.uploadRate !== null) {
    shown.push({
      key: 'plans.limit.speed',
      values: {
        down: plan.downloadRate === null ? '∞' : mbitText(plan.downloadRate),
        up: plan.uploadRate === null ? '∞' : mbitText(plan.uploadRate),
      },
    });
  }
  if (plan.quotaBytes !== null && plan.quotaPeriod !== null) {
    shown.push({ key: `plans.limit.quota.${plan.quotaPeriod}`, values: {}, bytes: plan.quotaBytes });
  }
  const durations: Array<[string, number | null]> = [
    ['plans.limit.dailyTime', plan.dailyTimeSeconds],
    ['plans.limit.totalTime', plan.totalTimeSeconds],
    ['plans.limit.idleTimeout', plan.idleTimeoutSeconds],
  ];
  for (const [key, seconds] of durations) {
    if (seconds !== null) shown.push({ key, values: {}, duration: durationWords(seconds) });
  }
  if (plan.maxSessions !== null) shown.push({ key: 'plans.limit.maxSessions', values: { count: plan.maxSessions } });
  if (plan.maxDevices !== null) shown.push({ key: 'plans.limit.maxDevices', values: { count: plan.maxDevices } });
  if (plan.interimIntervalSeconds !== null) {
    shown.push({
      key: 'plans.limit.interimInterval',
      values: {},
      duration: durationWords(plan.interimIntervalSeconds),
    });
  }
  return shown.length === 0 ? [{ key: 'plans.limit.none', values: {} }] : shown;
}

/**
 * A v1 refusal of a plan field, in the form's words: the form field that sets it and its problem
 * (a limit's field is its typed input's; `venueIds.0` is the picker's); null for one the form has not.
 */
export function planApiProblem(field: string): PlanFormProblem | null {
  const name = field.split('.')[0];
  if (name === 'name' || name === 'venueIds' || name === 'quotaPeriod') {
    return { field: name, key: `plans.problem.${name}` };
  }
  const input = LIMIT_INPUTS.find((entry) => entry.limit === name);
  return input === undefined ? null : { field: input.field, key: `plans.problem.${input.field}` };
}

/** The venues a plan's picker offers: the operator's (or every registered one), then the plan's own; each once. */
export function planVenueChoices(
  offered: readonly string[],
  planVenueIds: readonly string[],
  picked: readonly string[],
): Array<{ id: string; checked: boolean }> {
  return [...new Set([...offered, ...planVenueIds])].map((id) => ({ id, checked: picked.includes(id) }));
}
