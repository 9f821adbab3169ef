import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleAssetsDir } from './console-assets.js';
import { LANGUAGES, type Language } from './language.js';

export type Messages = Record<string, string>;

/** A message by key with its {placeholders} filled in; the template escapes the result. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * The console's server-rendered pages: eta templates from views/, escaping every `<%= %>` output
 * (only `<%~ %>` prints raw, used for the layout's body and the QR code this service drew itself),
 * with every text from the language's message catalogue in messages/.
 */
@Injectable()
export class ConsoleViews {
  private readonly eta: Eta;
  private readonly catalogues: Record<Language, Messages>;

  constructor() {
    const dir = consoleAssetsDir();
    this.eta = new Eta({ views: join(dir, 'views'), autoEscape: true, cache: true });
    const load = (language: Language) =>
      JSON.parse(readFileSync(join(dir, 'messages', `${language}.json`), 'utf8')) as Messages;
    this.catalogues = Object.fromEntries(LANGUAGES.map((language) => [language, load(language)])) as Record<
      Language,
      Messages
    >;
  }

  translator(language: Language): Translate {
    const messages = this.catalogues[language];
    return (key, values = {}) =>
      (messages[key] ?? this.catalogues.en[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) =>
        name in values ? String(values[name]) : whole,
      );
  }

  render(view: string, language: Language, data: Record<string, unknown> = {}): string {
    return this.eta.render(`./${view}`, { ...data, lang: language, t: this.translator(language) });
  }
}
