import { describe, expect, it } from 'vitest';
import { csvCell, FORMULA_STARTS, quoteCsv, startsFormula } from './csv-cell.ts';

describe('a CSV cell', () => {
  it('takes a formula start to be exactly a first code unit of FORMULA_STARTS', () => {
    const starts = new Set(FORMULA_STARTS);
    for (let code = 0; code <= 0xffff; code++) {
      const first = String.fromCharCode(code);
      expect(startsFormula(`${first}x`), `U+${code.toString(16)}`).toBe(starts.has(first));
    }
    expect(startsFormula('')).toBe(false);
  });

  it('escapes formula starts, then quotes what holds a quote, comma or line break', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('＠home')).toBe("'＠home");
    expect(csvCell('-1,2')).toBe(`"'-1,2"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('plain text')).toBe('plain text');
    expect(quoteCsv('=not escaped')).toBe('=not escaped');
    expect(quoteCsv('a,b')).toBe('"a,b"');
  });
});
