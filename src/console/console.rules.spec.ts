import { consoleReturnPath, crossSiteRefusal } from './console.rules.js';

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

describe('consoleReturnPath', () => {
  it('keeps a console path with its query', () => {
    expect(consoleReturnPath('/admin/users?venueId=a&q=ada')).toBe('/admin/users?venueId=a&q=ada');
    expect(consoleReturnPath('/admin')).toBe('/admin');
    expect(consoleReturnPath('/admin/login')).toBe('/admin/login');
  });

  it('refuses anything that could lead elsewhere', () => {
    for (const value of [
      '',
      'home',
      '//evil.example/admin',
      '/admin//evil',
      '/administrator',
      'https://evil.example/admin',
      '/admin\\evil',
      '/admin/ x',
      '/admin/' + 'x'.repeat(600),
    ]) {
      expect([value, consoleReturnPath(value)]).toEqual([value, null]);
    }
  });
});
