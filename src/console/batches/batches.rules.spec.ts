import { batchApiProblem, batchRequestOf, type BatchForm } from './batches.rules.js';

const form = (fields: Partial<BatchForm> = {}): BatchForm => ({
  venueId: 'lobby',
  count: '50',
  prefix: '',
  passwordLength: '',
  expiresAt: '2030-01-31T12:00',
  validForHours: '',
  planId: '',
  label: '',
  ...fields,
});

describe('batchRequestOf', () => {
  it('reads the form with the defaults, the expiry in the operator zone', () => {
    const { request, problems } = batchRequestOf(form({ label: ' Fair ' }), 'Europe/Istanbul');
    expect(problems).toEqual([]);
    expect(request).toEqual({
      venueId: 'lobby',
      count: 50,
      prefix: 'guest-',
      passwordLength: 10,
      expiresAt: new Date('2030-01-31T09:00:00.000Z'),
      validFor: null,
      label: 'Fair',
      planId: null,
    });
  });

  it('puts every account on the plan picked, none when none is', () => {
    expect(batchRequestOf(form({ planId: ' p1 ' }), null).request?.planId).toBe('p1');
    expect(batchRequestOf(form(), null).request?.planId).toBeNull();
  });

  it('takes hours from the first login instead of an expiry', () => {
    const { request } = batchRequestOf(form({ expiresAt: '', validForHours: '24' }), null);
    expect(request).toMatchObject({ expiresAt: null, validFor: 86_400 });
  });

  it.each([
    [{ count: '0' }, 'count'],
    [{ count: '1001' }, 'count'],
    [{ count: '5e1' }, 'count'],
    [{ count: '' }, 'count'],
    [{ passwordLength: '7' }, 'passwordLength'],
    [{ passwordLength: '13' }, 'passwordLength'],
    [{ prefix: 'a b' }, 'prefix'],
    [{ prefix: '-x' }, 'prefix'],
    [{ expiresAt: '' }, 'expiresAt'],
    [{ validForHours: '24' }, 'validForHours'],
    [{ expiresAt: '', validForHours: '0' }, 'validForHours'],
    [{ expiresAt: '', validForHours: '8785' }, 'validForHours'],
    [{ expiresAt: '', validForHours: '1.5' }, 'validForHours'],
    [{ expiresAt: '2030-02-30T10:00' }, 'expiresAt'],
    [{ label: 'x'.repeat(101) }, 'label'],
  ])('names the field of %j', (fields, field) => {
    const { request, problems } = batchRequestOf(form(fields), null);
    expect(request).toBeNull();
    expect(problems.map((problem) => problem.field)).toEqual([field]);
  });
});

describe('batchApiProblem', () => {
  it("names the form's field and its sentence, never the API's field name", () => {
    expect(batchApiProblem(400, 'expiresAt', 'expiresAt must lie in the future')).toEqual({
      field: 'expiresAt',
      key: 'batches.invalid.expiresAt',
      text: null,
    });
    expect(batchApiProblem(400, 'validFor', 'validFor must be …')).toEqual({
      field: 'validForHours',
      key: 'batches.invalid.validForHours',
      text: null,
    });
    expect(batchApiProblem(409, 'prefix', 'no free usernames')).toEqual({
      field: 'prefix',
      key: 'batches.invalid.prefixTaken',
      text: null,
    });
    expect(batchApiProblem(400, 'venueId', 'venueId must be …')).toEqual({
      field: null,
      key: null,
      text: 'venueId must be …',
    });
  });
});
