/**
 * One CSV cell as every export writes it (RFC 4180, OWASP CSV Injection, docs/security.md#f1):
 * the catalogue's export (in Node, and in PostgreSQL's COPY from the same list of starts) and the
 * radar's build-your-own-radar file.
 */

/** First characters a spreadsheet would run as a formula, ASCII or full-width. */
export const FORMULA_STARTS: readonly string[] = [
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\0',
  '＝',
  '＋',
  '－',
  '＠',
];

/**
 * Whether a text cell starts with one of `FORMULA_STARTS`: its first code unit, compared as a
 * number (a switch: this runs for every text cell of a 100,000-row export). csv-cell.test.ts
 * holds it to the list.
 */
export function startsFormula(text: string): boolean {
  switch (text.charCodeAt(0)) {
    case 0x3d: // =
    case 0x2b: // +
    case 0x2d: // -
    case 0x40: // @
    case 0x09: // tab
    case 0x0d: // CR
    case 0x00:
    case 0xff1d: // ＝
    case 0xff0b: // ＋
    case 0xff0d: // －
    case 0xff20: // ＠
      return true;
    default:
      return false;
  }
}

const NEEDS_QUOTES = /[",\r\n]/;

/** Quoted, its quotes doubled, when it holds a quote, comma or line break; as it is otherwise. */
export function quoteCsv(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A text cell: a formula start escaped with a quote, then quoted as needed. */
export function csvCell(value: string): string {
  return quoteCsv(startsFormula(value) ? `'${value}` : value);
}
