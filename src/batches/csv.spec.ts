import { csvCell, toCsv } from './csv.js';

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+90 532', "'+90 532"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ])('neutralises a formula start: %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it.each([
    ['guest-ab3k9x', 'guest-ab3k9x'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['', ''],
  ])('quotes per RFC 4180 only when needed: %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('leaves a formula character inside a cell alone, and writes null as empty and numbers as digits', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });
});

describe('toCsv', () => {
  it('ends every record with CRLF', () => {
    expect(
      toCsv([
        ['username', 'password'],
        ['guest-x', '=cmd'],
      ]),
    ).toBe("username,password\r\nguest-x,'=cmd\r\n");
  });
});
