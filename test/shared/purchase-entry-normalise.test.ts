// The shared cleaning of top-up entries: worked examples, and properties over any input
// (idempotent; a valid value stays valid and unchanged; a valid value dressed up the ways people
// paste it comes back to itself).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PURCHASE_FIELD_TYPES } from '../../src/shared/merchant/known-values';
import { normaliseEntryValue } from '../../src/shared/purchase-entry-normalise';
import { EMAIL_PATTERN, entryValueProblems, INTEGER_PATTERN, MOBILE_PATTERN, type EntryFieldRule } from '../../src/shared/purchase-entry-rules';

const toFullWidth = (s: string): string => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const rule = (type: EntryFieldRule['type']): EntryFieldRule => ({ type, kind: type, expected: null, required: true, pattern: null, minLength: null, maxLength: null, options: [{ value: 'a' }] });

const mobile = fc.tuple(fc.constantFrom(...'3456789'), fc.stringMatching(/^\d{9}$/)).map(([second, rest]) => `1${second}${rest}`);
const integer = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map(String);
const email = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9._+-]{1,12}$/), fc.stringMatching(/^[a-z0-9-]{1,10}$/), fc.constantFrom('com', 'cn', 'com.cn', 'net'))
  .map(([local, host, tld]) => `${local}@${host}.${tld}`);
const anyText = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string());
const padding = fc.stringMatching(/^[ \t\u3000\u00a0]{0,3}$/);

describe('normaliseEntryValue: the issue-10 examples', () => {
  it.each([' 138 0013 8000 ', '１３８００１３８０００', '138-0013-8000', '+86 138 0013 8000', '＋８６ １３８ ００１３ ８０００', '0086 (138) 0013.8000', '86-138-0013-8000', '\u200b13800138000\u3000'])(
    'mobile %j → 13800138000',
    (typed) => {
      expect(normaliseEntryValue('mobile', typed)).toBe('13800138000');
      expect(entryValueProblems(rule('mobile'), typed)).toEqual([]);
    },
  );

  it('keeps a prefix when what follows is not a mainland number (nothing is cut that could be another number)', () => {
    expect(normaliseEntryValue('mobile', '86 2380013800')).toBe('862380013800');
    expect(normaliseEntryValue('mobile', '+1 415 555 0100')).toBe('+14155550100');
    expect(entryValueProblems(rule('mobile'), '+1 415 555 0100')).toEqual([{ code: 'mobile' }]);
  });

  it('integers: spaces and exact thousands groups go, anything ambiguous stays (and is refused)', () => {
    expect(normaliseEntryValue('integer', ' 1 000 ')).toBe('1000');
    expect(normaliseEntryValue('integer', '1,234,567')).toBe('1234567');
    expect(normaliseEntryValue('integer', '－４２')).toBe('-42');
    expect(normaliseEntryValue('integer', '\u221242')).toBe('-42');
    expect(normaliseEntryValue('integer', '1,00')).toBe('1,00');
    expect(normaliseEntryValue('integer', '12,34')).toBe('12,34');
    expect(entryValueProblems(rule('integer'), '1,00')).toEqual([{ code: 'integer' }]);
  });

  it('email: trimmed, full-width folded, the domain lowercased and the mailbox left alone', () => {
    expect(normaliseEntryValue('email', '  Li.Lei@Example.COM ')).toBe('Li.Lei@example.com');
    expect(normaliseEntryValue('email', 'ａｂ＠ｑｑ．ｃｏｍ')).toBe('ab@qq.com');
  });

  it('text and select are only trimmed: full-width text and options are kept as the merchant wrote them', () => {
    expect(normaliseEntryValue('text', '  玩家ＡＢＣ  ')).toBe('玩家ＡＢＣ');
    expect(normaliseEntryValue('select', ' a ')).toBe('a');
    expect(entryValueProblems(rule('select'), ' a ')).toEqual([]);
  });

  it('a value that is only white space is empty: required, not "not a mobile number"', () => {
    expect(entryValueProblems(rule('mobile'), ' \u3000 ')).toEqual([{ code: 'required' }]);
  });
});

describe('normaliseEntryValue: properties', () => {
  it('is idempotent for every field type and any input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PURCHASE_FIELD_TYPES), anyText, (type, value) => {
        const once = normaliseEntryValue(type, value);
        expect(normaliseEntryValue(type, once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a valid mobile number, integer or email (lowercase domain) exactly as it is', () => {
    fc.assert(
      fc.property(mobile, integer, email, (m, n, e) => {
        expect(MOBILE_PATTERN.test(m) && INTEGER_PATTERN.test(n) && EMAIL_PATTERN.test(e)).toBe(true);
        expect(normaliseEntryValue('mobile', m)).toBe(m);
        expect(normaliseEntryValue('integer', n)).toBe(n);
        expect(normaliseEntryValue('email', e)).toBe(e);
      }),
    );
  });

  it('brings a valid mobile number back from spaces, dashes, dots, brackets, full width and a +86/0086/86 prefix', () => {
    const separator = fc.constantFrom('', ' ', '-', '.', '\u3000', '\u2013', ' - ');
    fc.assert(
      fc.property(mobile, fc.constantFrom('', '+86', '0086', '86', '+86 ', '(+86) '), separator, separator, fc.boolean(), padding, padding, (m, prefix, s1, s2, wide, before, after) => {
        const grouped = `${prefix}${m.slice(0, 3)}${s1}${m.slice(3, 7)}${s2}${m.slice(7)}`;
        const typed = `${before}${wide ? toFullWidth(grouped) : grouped}${after}`;
        expect(normaliseEntryValue('mobile', typed)).toBe(m);
        expect(entryValueProblems(rule('mobile'), typed)).toEqual([]);
      }),
    );
  });

  it('brings a valid integer back from full width, surrounding space and thousands groups', () => {
    fc.assert(
      fc.property(integer, fc.boolean(), fc.boolean(), padding, padding, (n, wide, grouped, before, after) => {
        const withGroups = grouped ? n.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n;
        const typed = `${before}${wide ? toFullWidth(withGroups) : withGroups}${after}`;
        expect(normaliseEntryValue('integer', typed)).toBe(n);
      }),
    );
  });

  it('never turns an invalid value into a valid one of another meaning: a cleaned mobile number has the typed digits in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789 -+().86１２３') }), (typed) => {
        const cleaned = normaliseEntryValue('mobile', typed);
        const digits = (s: string): string => s.replace(/[１-９０]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\D/g, '');
        // Only a leading country code may be dropped; no digit is invented, reordered or lost inside.
        expect(digits(typed).endsWith(digits(cleaned))).toBe(true);
        if (MOBILE_PATTERN.test(cleaned)) expect(['', '86', '0086']).toContain(digits(typed).slice(0, digits(typed).length - 11));
      }),
    );
  });
});
