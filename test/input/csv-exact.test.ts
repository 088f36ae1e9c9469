/** csv cells and exact numbers (docs/exact-numbers.md): read exactly, written so they read back the same, 1e400 refused. */
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { csvCast, typeCell } from '../../src/io/input/csv-cells.js';
import { parseJson } from '../../src/json/json-parse.js';

describe('csv cells with numbers past a double', () => {
  it('read as the exact numbers they spell', () => {
    expect(typeCell('9007199254740993')).toBe(9007199254740993n);
    expect(String(typeCell('12345678901234567.89'))).toBe('12345678901234567.89');
    expect(typeCell('12.5')).toBe(12.5);
  });

  it('refuse a number no double can hold', () => {
    expect(() => typeCell('1e400')).toThrow(InputError);
    expect(() => typeCell('{"a":1e400}')).toThrow(/too large/);
    expect(typeCell('1e400', true)).toBe('1e400');
  });

  it('are written so that they read back the same: numbers bare, the text "1e400" quoted', () => {
    const [record] = parseJson('[{"id":9007199254740993,"amount":12345678901234567.89,"note":"1e400","nested":{"n":12345678901234567890}}]') as Array<
      Record<string, unknown>
    >;
    const line = stringify([Object.values(record as Record<string, unknown>)], { cast: csvCast });
    expect(line).toBe('9007199254740993,12345678901234567.89,"1e400","{""n"":12345678901234567890}"\n');
  });
});
