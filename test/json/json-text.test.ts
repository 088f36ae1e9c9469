import { describe, expect, it } from 'vitest';
import { compareNumbers, ExactDecimal, exactNumber, isJsonNumber } from '../../src/json/exact-number.js';
import { jsonText } from '../../src/json/json-text.js';
import { parseJson, UnrepresentableNumberError } from '../../src/json/json-parse.js';

const ANSWER =
  '{"id":9007199254740993,"amount":12345678901234567.89,"small":1.5,"list":[1,12345678901234567890123],"text":"9007199254740993","tiny":0.1,"huge":1e400}';

describe('parseJson', () => {
  it('keeps every number exact, wherever it is: ids past 2^53 as BigInts, long decimals as their text', () => {
    const value = parseJson(ANSWER) as Record<string, unknown>;
    expect(value.id).toBe(9007199254740993n);
    expect(value.amount).toBeInstanceOf(ExactDecimal);
    expect(String(value.amount)).toBe('12345678901234567.89');
    expect(value.small).toBe(1.5);
    expect(value.tiny).toBe(0.1);
    expect(value.list).toEqual([1, 12345678901234567890123n]);
    expect(value.text).toBe('9007199254740993');
    expect(String(value.huge)).toBe('1e400');
  });

  it('finds long numbers however their digits fall around the point', () => {
    for (const literal of ['123456789.123456789', '1234567.1234567891', '0.30000000000000004', '-9007199254740993', '1.234567890123456789e5', '4.9e-324']) {
      expect(jsonText(parseJson(`[${literal}]`)), literal).toBe(`[${literal}]`);
    }
  });

  it('reads what JSON.parse reads the same way: plain numbers, repeated keys (last wins), __proto__ as a field', () => {
    const text = '{"a":1,"a":9007199254740993,"__proto__":{"x":1},"b":[0.5,-2,3e5]}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value.a).toBe(9007199254740993n);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(value.b).toEqual([0.5, -2, 300000]);
    expect(parseJson('{"a":[1,2,{"b":"c"}]}')).toEqual(JSON.parse('{"a":[1,2,{"b":"c"}]}'));
  });

  it("gives JSON.parse's own message for a syntax error, on both paths", () => {
    const native = (text: string) => {
      try {
        JSON.parse(text);
      } catch (error) {
        return (error as Error).message;
      }
    };
    for (const text of ['{"a":1,}', '{"a":12345678901234567,}']) expect(() => parseJson(text)).toThrow(native(text));
  });

  it('refuses, in input, a number no double can hold (1e400, 1e-400); keeps long ones', () => {
    expect(() => parseJson('[1e400]', { input: true })).toThrow(UnrepresentableNumberError);
    expect(() => parseJson('{"a":-1E+400}', { input: true })).toThrow(/too large/);
    expect(() => parseJson('{"a":1e-400}', { input: true })).toThrow(/too small/);
    expect(String((parseJson('[12345678901234567.89]', { input: true }) as unknown[])[0])).toBe('12345678901234567.89');
  });
});

describe('jsonText', () => {
  it('writes exact numbers back as the digits they were read from, with or without indent', () => {
    const value = parseJson(ANSWER);
    expect(jsonText(value)).toBe(ANSWER);
    expect(JSON.parse(jsonText(value, 2).replace(/\d{16,}(\.\d+)?|1e400/g, '0'))).toBeTruthy();
    expect(jsonText(value, 2)).toContain('"amount": 12345678901234567.89');
  });

  it('leaves a string that looks like a mark alone, and plain values as JSON.stringify does', () => {
    const value = { s: '\u0000exact:abc:123', n: 9007199254740993n, d: new Date(0) };
    expect(JSON.parse(jsonText(value).replace('9007199254740993', '0'))).toEqual({ s: value.s, n: 0, d: '1970-01-01T00:00:00.000Z' });
    expect(jsonText({ a: [1, 'x', null] }, 2)).toBe(JSON.stringify({ a: [1, 'x', null] }, null, 2));
  });

  it('plain JSON.stringify refuses an exact decimal (as it refuses a BigInt) instead of writing an object', () => {
    expect(() => JSON.stringify({ a: exactNumber('12345678901234567.89') })).toThrow(TypeError);
  });
});

describe('exact numbers', () => {
  it('compare exactly across kinds', () => {
    const a = exactNumber('12345678901234567.89');
    const b = exactNumber('12345678901234567.9');
    expect(compareNumbers(a, b)).toBe(-1);
    expect(compareNumbers(9007199254740993n, 9007199254740992)).toBe(1);
    expect(compareNumbers(exactNumber('1e400'), 5)).toBe(1);
    expect(compareNumbers(exactNumber('12345678901234567.890'), exactNumber('12345678901234567.89'))).toBe(0);
    expect(compareNumbers(exactNumber('-12345678901234567.89'), exactNumber('-12345678901234567.9'))).toBe(1);
    expect(isJsonNumber(a) && isJsonNumber(1n) && isJsonNumber(2) && !isJsonNumber(Number.NaN) && !isJsonNumber('1')).toBe(true);
  });
});
