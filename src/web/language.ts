export const LANGUAGES = ['en', 'tr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** The cookie that keeps the language an operator picked. */
export const LANGUAGE_COOKIE = 'lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The console's language: the `lang` cookie when it names one the console has, otherwise the first
 * of Accept-Language's languages (by quality, then order) it has, otherwise English.
 */
export function pickLanguage(cookie: string | undefined, acceptLanguage: string | undefined): Language {
  if (isLanguage(cookie)) return cookie;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [range, ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
      return { primary: range.trim().toLowerCase().split('-')[0], quality: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ quality }) => quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map(({ primary }) => primary).find(isLanguage) ?? DEFAULT_LANGUAGE;
}
