import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleAssetsDir } from './console-assets.js';

/**
 * The forms a page sends without a one-time token: the sign-in's own (no signed-in session to bind
 * one to: ConsoleGuard asks none of the access levels 'anyone', 'second-factor' and 'any-session'),
 * and signing out everywhere (@WithoutFormToken()).
 */
const TOKENLESS_ACTIONS = [
  '/admin/language',
  '/admin/login',
  '/admin/login/passkey',
  '/admin/login/recovery',
  '/admin/login/second-factor',
  '/admin/logout',
  '/admin/logout-everywhere',
];

/** Each `<form method="post" …>…</form>` of a template: its action as written and what it holds. */
function postForms(text: string): Array<{ action: string; body: string }> {
  return [...text.matchAll(/<form method="post" action="([^"]*(?:<%[^%]*%>[^"]*)*)"([\s\S]*?)<\/form>/g)].map(
    (match) => ({ action: match[1], body: match[2] }),
  );
}

describe('console forms', () => {
  const dir = consoleAssetsDir();
  const templates = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.eta'))
    .map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));

  it('carry a one-time token in every form that changes something', () => {
    const forms = templates.flatMap(({ path, text }) => postForms(text).map((form) => ({ path, ...form })));
    expect(forms.length).toBeGreaterThan(20);
    const tokenless = forms.filter((form) => !form.body.includes('name="formToken" value="<%= it.formToken() %>"'));
    expect([...new Set(tokenless.map((form) => form.action))].sort()).toEqual([...TOKENLESS_ACTIONS].sort());
  });

  it('find every POST form of the templates (none written another way)', () => {
    for (const { path, text } of templates) {
      const opened = [...text.matchAll(/<form\b[^>]*method="post"/gi)].length;
      expect([path, postForms(text).length]).toEqual([path, opened]);
    }
  });
});
