import { pickLanguage } from './language.js';

describe('pickLanguage', () => {
  it.each([
    [undefined, undefined, 'en'],
    ['tr', 'en-GB', 'tr'],
    ['de', 'tr-TR,tr;q=0.9', 'tr'],
    [undefined, 'de-DE, tr;q=0.8, en;q=0.5', 'tr'],
    [undefined, 'en;q=0.4, tr;q=0.9', 'tr'],
    [undefined, 'tr;q=0, en', 'en'],
    [undefined, 'fr, de', 'en'],
    [undefined, 'garbage;;;', 'en'],
  ])('cookie %p, Accept-Language %p → %p', (cookie, accept, expected) => {
    expect(pickLanguage(cookie, accept)).toBe(expected);
  });
});
