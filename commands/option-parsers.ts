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

/** `a,b,c` → ['a','b','c']. */
export function commaList(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** Option parser of a repeatable option: each use adds its value to the list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
