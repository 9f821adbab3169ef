import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleAssetsDir } from './console-assets.js';
import { LANGUAGES, type Language } from './language.js';

export type Messages = Record<string, string>;

/** A message by key with its {placeholders} filled in; the template escapes the result. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * Every message of a language: the JSON files of messages/<language>/ (one per part of the console,
 * so each screen's texts live together), merged; a key defined twice is a mistake and stops the start.
 */
export function loadCatalogue(dir: string, language: Language): Messages {
  const folder = join(dir, 'messages', language);
  const messages: Messages = {};
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const part = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Messages;
    for (const [key, text] of Object.entries(part)) {
      if (key in messages) throw new Error(`Console message "${key}" is defined twice (messages/${language}/${file}).`);
      messages[key] = text;
    }
  }
  return messages;
}

/**
 * The console's server-rendered pages: eta templates from views/, escaping every `<%= %>` output
 * (only `<%~ %>` prints raw, used for the layout's body, included partials and the QR code this
 * service drew itself), with every text from the language's message catalogue in messages/.
 */
@Injectable()
export class ConsoleViews {
  private readonly eta: Eta;
  private readonly catalogues: Record<Language, Messages>;

  constructor() {
    const dir = consoleAssetsDir();
    this.eta = new Eta({ views: join(dir, 'views'), autoEscape: true, cache: true });
    this.catalogues = Object.fromEntries(
      LANGUAGES.map((language) => [language, loadCatalogue(dir, language)]),
    ) as Record<Language, Messages>;
  }

  translator(language: Language): Translate {
    const messages = this.catalogues[language];
    return (key, values = {}) =>
      (messages[key] ?? this.catalogues.en[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) =>
        name in values ? String(values[name]) : whole,
      );
  }

  /** Whether the catalogues have this key (a notice named in a URL is shown only when it is one of ours). */
  has(key: string): boolean {
    return key in this.catalogues.en;
  }

  render(view: string, language: Language, data: Record<string, unknown> = {}): string {
    return this.eta.render(`./${view}`, { ...data, lang: language, t: this.translator(language) });
  }
}
