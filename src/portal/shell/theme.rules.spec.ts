import { themeCss } from './theme.rules.js';

describe('themeCss', () => {
  it('writes only the colours set, and only #rrggbb ones', () => {
    expect(themeCss({ accent: '#113355', background: null, text: 'red;}body{x' })).toBe(
      ':root {\n  --accent: #113355;\n}\n',
    );
    expect(themeCss({ accent: null, background: null, text: null })).toBe('');
  });
});
