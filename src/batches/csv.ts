import type { BatchCardsDto } from './dto/batch.response.js';

/**
 * CSV for spreadsheets (RFC 4180: CRLF line ends, fields quoted when they hold a quote, a comma or a
 * line break, quotes doubled), with formula injection neutralised: a cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return gets a leading `'`, so a spreadsheet shows it as text instead
 * of evaluating it (OWASP's "CSV Injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');
}

/** A batch's cards as CSV: one header line, then one account a line (the console's and the CLI's export). */
export function cardsCsv({ batch, cards }: BatchCardsDto): string {
  return toCsv([
    ['username', 'password', 'venue', 'expiresAt', 'batch'],
    ...cards.map((card) => [card.username, card.password, batch.venueId, card.expiresAt, batch.label ?? batch.id]),
  ]);
}
