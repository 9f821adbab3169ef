import { Eta } from 'eta';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LANGUAGES, type Language } from './language.js';

export type Messages = Record<string, string>;

/** A message by key with its {placeholders} filled in; the template escapes the result. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** The catalogue files of a language below `dir`: each screen's `messages.<language>.json`, in path order. */
function catalogueFiles(dir: string, language: Language): string[] {
  const name = `messages.${language}.json`;
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path === name || path.endsWith(`/${name}`))
    .map((path) => join(dir, path))
    .sort();
}

/**
 * Every message of a language: the `messages.<language>.json` files of a web surface's screens
 * (each screen's words beside its templates), merged; a key defined twice is a mistake and stops the start.
 */
export function loadCatalogue(dir: string, language: Language): Messages {
  const messages: Messages = {};
  for (const file of catalogueFiles(dir, language)) {
    const part = JSON.parse(readFileSync(file, 'utf8')) as Messages;
    for (const [key, text] of Object.entries(part)) {
      if (key in messages) throw new Error(`Message "${key}" is defined twice (${relative(dir, file)}).`);
      messages[key] = text;
    }
  }
  return messages;
}

/**
 * The server-rendered pages of a web surface (the console, the guest portal): eta templates found
 * by their path below the surface's folder (`users/list` is `users/list.eta`), escaping every `<%= %>`
 * output (only `<%~ %>` prints raw: a layout's body, included partials and a QR code the service drew
 * itself), with every text from the language's message catalogue.
 */
export class WebViews {
  private readonly eta: Eta;
  private readonly catalogues: Record<Language, Messages>;

  constructor(dir: string) {
    this.eta = new Eta({ views: dir, autoEscape: true, cache: true });
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
