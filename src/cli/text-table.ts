/**
 * The lines of a table for a terminal: each column padded to its widest cell (counted in code
 * points, so a character outside the BMP counts once), two spaces apart, no trailing spaces.
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const lines = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => [...line[column]].length)));
  return lines.map((line) =>
    line
      .map((cell, column) => cell + ' '.repeat(widths[column] - [...cell].length))
      .join('  ')
      .trimEnd(),
  );
}

/** textTable's lines, each ending in a newline, as one text to write. */
export function textTableText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return textTable(header, rows)
    .map((line) => `${line}\n`)
    .join('');
}
