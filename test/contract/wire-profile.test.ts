/** Wire profile settings: one reading for `config set-wire`, `server start --wire`, stored and imported profiles. */
import { describe, expect, it } from 'vitest';
import { checkWireProfile, parseWireSettings, wireDifferences, wireText } from '../../src/contract/wire-profile.js';

describe('wire profile settings', () => {
  it('reads name=value pairs (commas or spaces), in the table’s order whatever the order given', () => {
    const profile = parseWireSettings(['envelope.success=true envelope.key=result,page.base=1', 'softNotFound=true page.maxSize=100']);
    expect(profile).toEqual({ envelope: { key: 'result', success: true }, softNotFound: true, page: { base: 1, maxSize: 100 } });
    expect(wireText(profile)).toBe('envelope.key=result envelope.success=true softNotFound=true page.base=1 page.maxSize=100');
  });

  it('merges onto a stored profile; envelope.key=none is a bare answer', () => {
    expect(parseWireSettings('page.base=0 envelope.key=none', { page: { maxSize: 7 }, envelope: { key: 'data' } })).toEqual({
      page: { maxSize: 7, base: 0 },
      envelope: 'none',
    });
  });

  it.each([
    ['page.base=2', /page.base=2: expected 0 \| 1/],
    ['page.maxSize=0', /expected a whole number from 1/],
    ['page.shape=round', /expected flat \| nested \| array/],
    ['colour=blue', /unknown wire setting colour/],
    ['page.base', /page.base needs a value/],
    ['envelope.code=true', /envelope.code needs envelope.key/],
    ['', /no wire settings given/],
  ])('refuses %j with a clear message', (text, message) => {
    expect(() => parseWireSettings(text)).toThrow(message);
  });

  it('checks a profile read from JSON by the same rules, unknown fields refused', () => {
    expect(checkWireProfile({ envelope: 'none', page: { base: 1, shape: 'flat' } })).toEqual({ envelope: 'none', page: { base: 1, shape: 'flat' } });
    expect(checkWireProfile({ envelope: { key: 'payload', success: true }, failure: 'success-false' })).toEqual({
      envelope: { key: 'payload', success: true },
      failure: 'success-false',
    });
    expect(() => checkWireProfile({ page: { base: '1x' } })).toThrow(/page.base=1x/);
    expect(() => checkWireProfile({ paging: { base: 1 } })).toThrow(/unknown wire setting paging.base/);
    expect(() => checkWireProfile([])).toThrow(/JSON object/);
  });

  it('differences are settings both sides have and disagree on', () => {
    const stored = { page: { base: 1 as const, maxSize: 100 }, softNotFound: true };
    expect(wireDifferences(stored, { page: { base: 0, maxSize: 100 }, envelope: 'none' })).toEqual(['page.base: 1 stored, 0 now']);
    expect(wireDifferences(stored, { page: { base: 1 } })).toEqual([]);
  });
});
