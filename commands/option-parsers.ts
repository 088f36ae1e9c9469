/**
 * Parsers for option values, declared with the options (commander reports a bad
 * value as a usage error, exit 2). Only commander is imported.
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

/** Parses a whole number ≥ `min` for an option. */
export function wholeNumber(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}`);
    return n;
  };
}

/** Parses a positive number of seconds. */
export function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number of seconds > 0');
  return n;
}

const BYTE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Parses a size in bytes: `1000`, `512kB`, `200MB`, `2GB` (binary multiples, case ignored). */
export function byteSize(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b)?\s*$/i.exec(value);
  const bytes = match ? Math.floor(Number(match[1]) * (BYTE_UNITS[(match[2] ?? '').toLowerCase()] ?? NaN)) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new InvalidArgumentError('expected a size such as 200MB, 2GB or a number of bytes');
  return bytes;
}

/** `a,b,c` → ['a','b','c']. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Option parser of a repeatable option: each use adds its value to the list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
