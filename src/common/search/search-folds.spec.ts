import { foldedText, reversedMac } from './search-folds.js';

describe('search folds', () => {
  it('folds case, accents, the dotless ı and white space', () => {
    expect(foldedText('  İstanbul   Şube ')).toBe('istanbul sube');
    expect(foldedText('YILMAZ')).toBe('yilmaz');
    expect(foldedText('Yılmaz')).toBe('yilmaz');
  });

  it('reads a MAC backwards with its separators in place', () => {
    expect(reversedMac('0A:1B:2C:3D:4E:5F')).toBe('F5:E4:D3:C2:B1:A0');
  });
});
