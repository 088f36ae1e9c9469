/** The item count of a JSON array body, read before it is parsed (src/server/item-count.ts). */
import { describe, expect, it } from 'vitest';
import { arrayItems } from '../../src/server/item-count.js';

const count = (text: string) => arrayItems(Buffer.from(text));

describe('arrayItems', () => {
  it('counts the items of the outer array only', () => {
    expect(count('[]')).toBe(0);
    expect(count(' \n[ ]')).toBe(0);
    expect(count('[{}]')).toBe(1);
    expect(count('[{},{},{}]')).toBe(3);
    expect(count('[ 1 , [2, 3], {"a": [4, 5], "b": {"c": 6}} ]')).toBe(3);
  });

  it('takes no comma, bracket or escaped quote inside a string for structure', () => {
    expect(count('["a,b", "[x", "}", "q\\"],[", "\\\\", "ü,€"]')).toBe(6);
    expect(count(JSON.stringify([{ note: 'a, b] {c' }, 'x\\",']))).toBe(2);
  });

  it('is undefined for a body that is no array', () => {
    expect(count('{"a":[1,2]}')).toBeUndefined();
    expect(count('"[1,2]"')).toBeUndefined();
    expect(count('')).toBeUndefined();
  });

  it('agrees with JSON.parse on a large array', () => {
    const items = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? { s: `v,${i}]` } : i % 3 === 1 ? [i, `"${i}"`] : `x\\${i}`));
    expect(count(JSON.stringify(items))).toBe(items.length);
  });
});
