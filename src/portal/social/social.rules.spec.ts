import { readFileSync } from 'node:fs';
import {
  problemKey,
  problemOfFailure,
  problemOfQuery,
  problemOfRefusal,
  socialPageContentSecurityPolicy,
  SOCIAL_PROBLEMS,
} from './social.rules.js';

describe('social sign-in screen rules', () => {
  it("names each of the sign-in service's failures", () => {
    expect(problemOfFailure('denied')).toBe('denied');
    expect(problemOfFailure('unknown-state')).toBe('unknownState');
    expect(problemOfFailure('provider-down')).toBe('providerDown');
    expect(problemOfFailure('unknown-provider')).toBe('unknownProvider');
  });

  it("names guest-access's refusals", () => {
    expect(problemOfRefusal('termsNotAccepted')).toBe('terms');
    expect(problemOfRefusal('blocked')).toBe('blocked');
    expect(problemOfRefusal('wayNotOffered')).toBe('unknownProvider');
  });

  it('reads only known problems from the query', () => {
    for (const problem of SOCIAL_PROBLEMS) expect(problemOfQuery(problem)).toBe(problem);
    expect(problemOfQuery('')).toBeNull();
    expect(problemOfQuery('<script>')).toBeNull();
  });

  it("uses the portal's terms problem and the screen's own keys", () => {
    expect(problemKey('terms')).toBe('portal.problem.terms');
    expect(problemKey('denied')).toBe('social.problem.denied');
  });

  it("lets the page's form go to the portal and the providers' origins only", () => {
    const policy = socialPageContentSecurityPolicy(['https://accounts.google.com', 'https://appleid.apple.com']);
    expect(policy).toContain("form-action 'self' https://accounts.google.com https://appleid.apple.com");
    expect(policy).toContain("script-src 'self'");
    expect(socialPageContentSecurityPolicy([])).toMatch(/form-action 'self'$/);
  });

  it('has every word of the screen in English and Turkish', () => {
    const catalogue = (language: string) =>
      JSON.parse(readFileSync(new URL(`messages.${language}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    const [en, tr] = [catalogue('en'), catalogue('tr')];
    expect(Object.keys(tr).sort()).toEqual(Object.keys(en).sort());
    for (const problem of SOCIAL_PROBLEMS.filter((name) => name !== 'terms')) {
      expect(en).toHaveProperty([problemKey(problem)]);
    }
  });
});
