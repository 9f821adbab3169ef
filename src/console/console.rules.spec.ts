import { consoleReturnPath } from './console.rules.js';

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
