import type { PlanDto } from '../../../plans/dto/plan.response.js';
import {
  emptyPlanForm,
  limitWords,
  planApiProblem,
  planFieldsOf,
  planFormOf,
  planVenueChoices,
  type PlanForm,
} from './plan-form.rules.js';

const form = (fields: Partial<PlanForm>): PlanForm => ({ ...emptyPlanForm(), name: 'Free', ...fields });

const plan = (fields: Partial<PlanDto>): PlanDto => ({
  _id: 'p1',
  name: 'Free',
  venueIds: ['venue-a'],
  downloadRate: null,
  uploadRate: null,
  quotaBytes: null,
  quotaPeriod: null,
  dailyTimeSeconds: null,
  totalTimeSeconds: null,
  idleTimeoutSeconds: null,
  maxSessions: null,
  maxDevices: null,
  interimIntervalSeconds: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('plan form rules', () => {
  it('reads Mbit/s, MB or GB, minutes and hours into bit/s, bytes and seconds; empty is no limit', () => {
    const { fields, problems } = planFieldsOf(
      form({
        name: '  Free 5 Mbit ',
        downloadMbit: '5',
        uploadMbit: '0,5',
        quota: '1.5',
        quotaUnit: 'GB',
        quotaPeriod: 'day',
        dailyMinutes: '90',
        totalHours: '2.5',
        maxDevices: '3',
      }),
      ['venue-a'],
    );
    expect(problems).toEqual([]);
    expect(fields).toEqual({
      name: 'Free 5 Mbit',
      venueIds: ['venue-a'],
      downloadRate: 5_000_000,
      uploadRate: 500_000,
      quotaBytes: 1_500_000_000,
      quotaPeriod: 'day',
      dailyTimeSeconds: 5400,
      totalTimeSeconds: 9000,
      idleTimeoutSeconds: null,
      maxSessions: null,
      maxDevices: 3,
      interimIntervalSeconds: null,
    });
    expect(planFieldsOf(form({ quota: '500', quotaUnit: 'MB', quotaPeriod: 'total' }), ['v']).fields?.quotaBytes).toBe(
      500_000_000,
    );
  });

  it('names every problem at once, each beside its field', () => {
    const { fields, problems } = planFieldsOf(
      form({
        name: '',
        downloadMbit: 'fast',
        uploadMbit: '0.0001',
        quota: '1',
        dailyMinutes: '1.5',
        idleMinutes: '2000',
        maxSessions: '0',
      }),
      [],
    );
    expect(fields).toBeNull();
    expect(problems.map((problem) => problem.field)).toEqual([
      'name',
      'venueIds',
      'downloadMbit',
      'uploadMbit',
      'dailyMinutes',
      'idleMinutes',
      'maxSessions',
      'quotaPeriod',
    ]);
    expect(problems[2]).toEqual({ field: 'downloadMbit', key: 'plans.problem.downloadMbit' });
  });

  it('refuses a quota period without a quota', () => {
    expect(planFieldsOf(form({ quotaPeriod: 'day' }), ['v']).problems).toEqual([
      { field: 'quotaPeriod', key: 'plans.problem.quotaPeriod' },
    ]);
  });

  it('fills the form from a plan in the form units, a quota of whole gigabytes in GB', () => {
    const filled = planFormOf(
      plan({ downloadRate: 5_500_000, quotaBytes: 2_000_000_000, quotaPeriod: 'day', dailyTimeSeconds: 7200 }),
    );
    expect(filled).toMatchObject({ downloadMbit: '5.5', quota: '2', quotaUnit: 'GB', quotaPeriod: 'day' });
    expect(filled.dailyMinutes).toBe('120');
    expect(planFormOf(plan({ quotaBytes: 300_000_000, quotaPeriod: 'session' }))).toMatchObject({
      quota: '300',
      quotaUnit: 'MB',
    });
    expect(planFieldsOf(filled, ['venue-a']).fields?.quotaBytes).toBe(2_000_000_000);
  });

  it("lists a plan's limits in the form's order, or says it has none", () => {
    expect(limitWords(plan({}))).toEqual([{ key: 'plans.limit.none', values: {} }]);
    expect(
      limitWords(plan({ downloadRate: 5_000_000, quotaBytes: 10, quotaPeriod: 'total', maxSessions: 2 })).map(
        (words) => words.key,
      ),
    ).toEqual(['plans.limit.speed', 'plans.limit.quota.total', 'plans.limit.maxSessions']);
    expect(limitWords(plan({ uploadRate: 1_000_000 }))[0].values).toEqual({ down: '∞', up: '1' });
  });

  it("puts the API's refusal of a field beside the form's field that sets it", () => {
    expect(planApiProblem('downloadRate')).toEqual({ field: 'downloadMbit', key: 'plans.problem.downloadMbit' });
    expect(planApiProblem('venueIds.0')).toEqual({ field: 'venueIds', key: 'plans.problem.venueIds' });
    expect(planApiProblem('other')).toBeNull();
  });

  it("offers the operator's venues then the plan's own, ticked as picked", () => {
    expect(planVenueChoices(['a', 'b'], ['b', 'c'], ['c'])).toEqual([
      { id: 'a', checked: false },
      { id: 'b', checked: false },
      { id: 'c', checked: true },
    ]);
  });
});
