/**
 * RFC 4180 CSV parser. The ranking exports quote fields that hold commas, quotes ("" inside a
 * quoted field) and line breaks, and one description is 5,835 characters long, so a split on
 * commas or lines is not enough. Accepts CRLF or LF line ends and a UTF-8 byte-order mark.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  // A row that ends the file without a line break still counts; an empty last line does not.
  let rowHasContent = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  while (i < text.length) {
    const char = text[i];
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i += 1;
        continue;
      }
      // Copy the run up to the next quote in one slice: long descriptions stay cheap.
      const nextQuote = text.indexOf('"', i);
      const end = nextQuote === -1 ? text.length : nextQuote;
      field += text.slice(i, end);
      i = end;
      continue;
    }
    if (char === '"') {
      inQuotes = true;
      rowHasContent = true;
      i += 1;
    } else if (char === ',') {
      row.push(field);
      field = '';
      rowHasContent = true;
      i += 1;
    } else if (char === '\r' || char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      rowHasContent = false;
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      // Copy the run of ordinary characters in one slice.
      let end = i + 1;
      while (end < text.length && !isSpecial(text.charCodeAt(end))) {
        end += 1;
      }
      field += text.slice(i, end);
      rowHasContent = true;
      i = end;
    }
  }
  if (inQuotes) {
    throw new Error('CSV ends inside a quoted field');
  }
  if (rowHasContent || field !== '') {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

function isSpecial(code: number): boolean {
  return code === QUOTE || code === COMMA || code === CR || code === LF;
}

/** Parses a CSV with a header line into objects keyed by the header's column names. */
export function parseCsvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) {
    return [];
  }
  return rows.map((cells, index) => {
    if (cells.length !== header.length) {
      throw new Error(`CSV row ${index + 2} has ${cells.length} fields, the header has ${header.length}`);
    }
    const record: Record<string, string> = {};
    header.forEach((column, columnIndex) => {
      record[column] = cells[columnIndex] ?? '';
    });
    return record;
  });
}
