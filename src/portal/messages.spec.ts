import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PORTAL_WAYS } from '../guest-access/guest-access.rules.js';
import { LANGUAGES } from '../web/language.js';
import { loadCatalogue } from '../web/views.js';
import { portalAssetsDir } from './portal-views.js';

/** Every text the portal shows comes from both catalogues: the same keys in each, and every key a page names exists. */
describe('portal message catalogues', () => {
  const dir = portalAssetsDir();
  const catalogues = LANGUAGES.map((language) => ({ language, messages: loadCatalogue(dir, language) }));
  const files = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });

  it('have the same keys and {placeholders} in every language, none empty', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const [first, ...others] = catalogues;
    for (const other of others) {
      expect(Object.keys(other.messages).sort()).toEqual(Object.keys(first.messages).sort());
      for (const [key, text] of Object.entries(first.messages))
        expect([key, placeholders(other.messages[key] ?? '')]).toEqual([key, placeholders(text)]);
    }
    for (const { messages } of catalogues)
      expect(Object.entries(messages).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it('have every key the pages and the portal code name literally, and a way for each start-page link', () => {
    const named = new Set<string>();
    for (const path of files(dir).filter((file) => /\.(eta|ts)$/.test(file) && !file.endsWith('.spec.ts'))) {
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(/it\.t\('([a-zA-Z.]+[a-zA-Z])'/g)) named.add(match[1]);
      for (const match of text.matchAll(
        /'((?:error|status|voucher|terms|portal|handover|start)\.[a-zA-Z.]+[a-zA-Z])'/g,
      ))
        if (!/\.(css|js)$/.test(match[1])) named.add(match[1]);
    }
    for (const way of PORTAL_WAYS) named.add(`start.way.${way}`);
    expect(named.size).toBeGreaterThan(30);
    for (const { messages } of catalogues) expect([...named].filter((key) => !(key in messages))).toEqual([]);
  });

  it('every form that posts carries the form token', () => {
    for (const path of files(dir).filter((file) => file.endsWith('.eta'))) {
      const text = readFileSync(path, 'utf8');
      for (const form of text.split('<form method="post"').slice(1))
        expect([path, form.slice(0, form.indexOf('</form>'))]).toEqual([
          path,
          expect.stringContaining('it.formToken()'),
        ]);
    }
  });
});
