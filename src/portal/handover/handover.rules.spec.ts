import { HANDOVER_CONTENT_SECURITY_POLICY } from './handover.rules.js';

describe('HANDOVER_CONTENT_SECURITY_POLICY', () => {
  it('keeps scripts and styles to the portal, and leaves the form (and its redirects) free to reach the gateway', () => {
    const directives = HANDOVER_CONTENT_SECURITY_POLICY.split('; ');
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("style-src 'self'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(directives.some((directive) => directive.startsWith('form-action'))).toBe(false);
  });
});
