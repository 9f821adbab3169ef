import { textTable, textTableText } from './text-table.js';

describe('textTable', () => {
  it('pads each column to its widest cell, two spaces apart, without trailing spaces', () => {
    expect(
      textTable(
        ['ID', 'NAME', 'NOTE'],
        [
          ['1', 'lobby-ap', '-'],
          ['22', 'gw', 'long note'],
        ],
      ),
    ).toEqual(['ID  NAME      NOTE', '1   lobby-ap  -', '22  gw        long note']);
  });

  it('counts a character outside the BMP once', () => {
    expect(textTable(['A', 'B'], [['☕🙂', 'x']])).toEqual(['A   B', '☕🙂  x']);
  });

  it('writes each line with its newline; a header alone is one line', () => {
    expect(textTableText(['A', 'B'], [['1', '2']])).toBe('A  B\n1  2\n');
    expect(textTableText(['A'], [])).toBe('A\n');
  });
});
