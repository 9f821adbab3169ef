import { crossSiteRefusal } from './cross-site.js';

const OWN = 'https://hotspot.example';

describe('crossSiteRefusal', () => {
  it.each([
    [{ secFetchSite: 'same-origin' }, null],
    [{ secFetchSite: 'none' }, null],
    [{ secFetchSite: 'same-origin', origin: 'https://evil.example' }, null],
    [{ secFetchSite: 'cross-site', origin: OWN }, 'cross-site'],
    [{ secFetchSite: 'same-site' }, 'cross-site'],
    [{ origin: OWN }, null],
    [{ origin: 'https://evil.example' }, 'cross-site'],
    [{ origin: 'null' }, 'cross-site'],
    [{ origin: 'http://hotspot.example' }, 'cross-site'],
    [{}, 'no-origin'],
  ])('%p → %p', (headers, expected) => {
    expect(crossSiteRefusal(headers, OWN)).toBe(expected);
  });
});
