import {
  appliedPlanChanges,
  changedPlanFields,
  limitsOf,
  NO_LIMITS,
  planErrors,
  planInUseProblem,
  removedVenues,
  venuesNotOffered,
  type PlanFields,
} from './plan.rules.js';

const PLAN: PlanFields = { ...NO_LIMITS, name: 'Free', venueIds: ['a', 'b'], quotaBytes: 1000, quotaPeriod: 'day' };

describe('planErrors', () => {
  it('takes a quota with its period, and neither', () => {
    expect(planErrors(PLAN)).toEqual([]);
    expect(planErrors(NO_LIMITS)).toEqual([]);
  });

  it('refuses a quota without a period, and a period without a quota', () => {
    expect(planErrors({ ...PLAN, quotaPeriod: null })).toEqual([
      { field: 'quotaPeriod', message: 'quotaPeriod is required with quotaBytes (session, day or total)' },
    ]);
    expect(planErrors({ ...PLAN, quotaBytes: null })).toEqual([
      { field: 'quotaPeriod', message: 'quotaPeriod is only accepted with quotaBytes' },
    ]);
  });
});

describe('appliedPlanChanges and changedPlanFields', () => {
  it('sets what is given, clears with null, leaves the rest', () => {
    const next = appliedPlanChanges(PLAN, { name: 'Paid', maxDevices: 3, quotaBytes: null, quotaPeriod: null });
    expect(next).toEqual({ ...PLAN, name: 'Paid', maxDevices: 3, quotaBytes: null, quotaPeriod: null });
    expect(changedPlanFields(PLAN, next)).toEqual(['name', 'quotaBytes', 'quotaPeriod', 'maxDevices']);
  });

  it('sees a new order of venues as a change, the same venues as none', () => {
    expect(changedPlanFields(PLAN, appliedPlanChanges(PLAN, { venueIds: ['b', 'a'] }))).toEqual(['venueIds']);
    expect(changedPlanFields(PLAN, appliedPlanChanges(PLAN, { venueIds: ['a', 'b'] }))).toEqual([]);
  });

  it('keeps only the limits in limitsOf', () => {
    expect(limitsOf(PLAN)).toEqual({ ...NO_LIMITS, quotaBytes: 1000, quotaPeriod: 'day' });
  });
});

describe('venues', () => {
  it('names the venues that do not offer the plan, each once', () => {
    expect(venuesNotOffered(['a', 'b'], ['b', 'c', 'c', 'd'])).toEqual(['c', 'd']);
    expect(venuesNotOffered(['a'], ['a'])).toEqual([]);
  });

  it('names the venues a change takes away', () => {
    expect(removedVenues(['a', 'b', 'c'], ['c', 'd'])).toEqual(['a', 'b']);
  });
});

describe('planInUseProblem', () => {
  it('is null for a plan nothing uses', () => {
    expect(planInUseProblem({ users: 0, batches: 0, defaultOfVenues: [] })).toBeNull();
  });

  it('says what uses it', () => {
    expect(planInUseProblem({ users: 1, batches: 0, defaultOfVenues: [] })).toBe('the plan is in use: 1 user is on it');
    expect(planInUseProblem({ users: 2, batches: 1, defaultOfVenues: ['a', 'b'] })).toBe(
      'the plan is in use: 2 users are on it; 1 batch gives it; it is the default plan of venue a, b',
    );
  });
});
