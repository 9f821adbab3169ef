import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const catalogue = (folder: string, language: string) =>
  JSON.parse(readFileSync(join(folder, `messages.${language}.json`), 'utf8')) as Record<string, string>;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** The SMS screen's words, and the SMS text's, in both languages, with the same placeholders. */
describe('the SMS way catalogues', () => {
  for (const folder of [here, join(here, '../../phone-verification')]) {
    it(`${folder.split('/').slice(-2).join('/')}: the same keys and placeholders in English and Turkish`, () => {
      const en = catalogue(folder, 'en');
      const tr = catalogue(folder, 'tr');
      expect(Object.keys(tr).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en))
        expect([key, placeholders(tr[key])]).toEqual([key, placeholders(text)]);
    });
  }

  it('has every key the screen names, in its templates and its rules', () => {
    const en = catalogue(here, 'en');
    const shell = catalogue(join(here, '../shell'), 'en');
    const sources = readdirSync(here)
      .filter((name) => /\.(eta|ts)$/.test(name) && !name.endsWith('.spec.ts'))
      .map((name) => readFileSync(join(here, name), 'utf8'))
      .join('\n');
    const named = [...sources.matchAll(/'((?:sms|portal)\.[\w.]+)'/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(10);
    const built = ['invalid', 'international', 'country'].map((problem) => `sms.problem.phone.${problem}`);
    for (const key of [...named.filter((key) => !key.endsWith('.phone.')), ...built]) {
      expect([key, key in en || key in shell]).toEqual([key, true]);
    }
  });
});
