import { unauthJobLinks } from './unauth-job-link.js';

describe('unauthJobLinks', () => {
  it('is absent when the change wrote no job', () => {
    expect(unauthJobLinks([])).toBeNull();
  });

  it('names each job with its address and the unauth-job relation, comma-separated', () => {
    expect(unauthJobLinks(['a1'])).toBe('</api/v1/unauth-jobs/a1>; rel="unauth-job"');
    expect(unauthJobLinks(['a1', 'b2'])).toBe(
      '</api/v1/unauth-jobs/a1>; rel="unauth-job", </api/v1/unauth-jobs/b2>; rel="unauth-job"',
    );
  });
});
