// The field cleaning rule as properties (fast-check, seeded so a failure is replayed exactly): it is
// idempotent for every kind; a valid id dressed up the ways people type and paste it (spaces,
// full-width digits, zero-width characters, dashes) comes back to itself; free text keeps its inner
// spaces; and a cleaned value is never refused for something the cleaning could have removed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseEntryValue } from '../../src/shared/purchase-entry-normalise';
import { compileEntryPattern, entryValueProblems, fieldFacts, type EntryFieldRule } from '../../src/shared/purchase-entry-rules';
import type { FieldKind } from '../../src/shared/purchase-field-kind';

const SEED = 20251128;
const KINDS: readonly FieldKind[] = ['mobile', 'email', 'integer', 'select', 'numericId', 'accountId', 'text'];

/** A field as the sandbox's catalog writes it (catalog-vocabulary.ts), with its facts derived as the app derives them. */
function ruleOf(field: { fieldRef: string; label: string; type: 'text' | 'integer'; pattern: string | null; minLength: number | null; maxLength: number | null; placeholder: string | null }): EntryFieldRule {
  return { ...field, ...fieldFacts(field), required: true, pattern: field.pattern === null ? null : compileEntryPattern(field.pattern), options: [] };
}
const QQ = ruleOf({ fieldRef: 'qq', label: 'QQ号码', type: 'text', pattern: '^[1-9]\\d{4,11}$', minLength: 5, maxLength: 12, placeholder: '请输入QQ号' });
const GAME_ACCOUNT = ruleOf({ fieldRef: 'account', label: '游戏账号', type: 'text', pattern: null, minLength: 5, maxLength: 30, placeholder: 'QQ号或微信号' });
const UID = ruleOf({ fieldRef: 'uid', label: '游戏UID', type: 'integer', pattern: '^[1-9]\\d{8}$', minLength: 9, maxLength: 9, placeholder: '9位数字UID' });
const ROLE_NAME = ruleOf({ fieldRef: 'roleName', label: '角色名', type: 'text', pattern: null, minLength: null, maxLength: 20, placeholder: null });

const toFullWidth = (c: string): string => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c);
const SPACES = [' ', '\u3000', '\u00a0', '\t', '\u2009', '\u202f'];
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u200e', '\u00ad'];
const DASHES = ['-', '\u2010', '\u2013', '\u2014', '\u2212', '\uff0d'];

/** The value with characters the kind drops put anywhere, and some of its characters made full-width. */
function dressed(value: fc.Arbitrary<string>, noise: readonly string[]): fc.Arbitrary<{ plain: string; typed: string }> {
  return value.chain((plain) =>
    fc
      .tuple(
        fc.array(fc.boolean(), { minLength: plain.length, maxLength: plain.length }),
        fc.array(fc.tuple(fc.nat({ max: plain.length }), fc.constantFrom(...noise)), { maxLength: 8 }),
      )
      .map(([wide, inserts]) => {
        const chars = [...plain].map((c, i) => (wide[i] === true ? toFullWidth(c) : c));
        for (const [at, c] of [...inserts].sort((a, b) => b[0] - a[0])) chars.splice(at, 0, c);
        return { plain, typed: chars.join('') };
      }),
  );
}

const qqNumber = fc.stringMatching(/^[1-9]\d{4,11}$/);
const uid = fc.stringMatching(/^[1-9]\d{8}$/);
const account = fc.stringMatching(/^[A-Za-z0-9_.@-]{5,30}$/);
const anyText = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...SPACES, ...INVISIBLE, ...DASHES, '１', 'Ａ', '9', 'a', '玩') }));

describe('the field cleaning rule: properties (seeded)', () => {
  it('is idempotent for every kind and any input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), anyText, (kind, value) => {
        const once = normaliseEntryValue(kind, value);
        expect(normaliseEntryValue(kind, once)).toBe(once);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('a valid QQ number or UID typed with spaces, dashes, full-width digits and zero-width characters is the plain number, and passes', () => {
    fc.assert(
      fc.property(dressed(qqNumber, [...SPACES, ...INVISIBLE, ...DASHES]), dressed(uid, [...SPACES, ...INVISIBLE, ...DASHES]), (qq, id) => {
        expect(normaliseEntryValue(QQ.kind, qq.typed)).toBe(qq.plain);
        expect(entryValueProblems(QQ, qq.typed)).toEqual([]);
        expect(normaliseEntryValue(UID.kind, id.typed)).toBe(id.plain);
        expect(entryValueProblems(UID, id.typed)).toEqual([]);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('a game account typed with spaces, full-width letters and digits and zero-width characters is the account as meant', () => {
    fc.assert(
      fc.property(dressed(account, [...SPACES, ...INVISIBLE]), ({ plain, typed }) => {
        expect(normaliseEntryValue(GAME_ACCOUNT.kind, typed)).toBe(plain);
        expect(entryValueProblems(GAME_ACCOUNT, typed)).toEqual([]);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('free text keeps its inner spaces and full-width characters: only the ends are trimmed', () => {
    const inner = fc.string({ unit: fc.constantFrom('玩', '家', 'Ａ', '１', 'a', ' ', '\u3000', '-'), minLength: 1, maxLength: 18 }).filter((s) => s.trim() === s && s !== '');
    fc.assert(
      fc.property(inner, fc.stringMatching(/^[ \u3000]{0,2}$/), fc.stringMatching(/^[ \u3000]{0,2}$/), (name, before, after) => {
        expect(normaliseEntryValue(ROLE_NAME.kind, `${before}${name}${after}`)).toBe(name);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('never leaves what it could have removed: a refused id value holds no space, invisible character, dash or full-width form', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        for (const [rule, drops] of [
          [QQ, /[\s\u200b-\u200f\u2060\ufeff\u00ad\uff01-\uff5e\-\u2010-\u2015\u2212]/],
          [UID, /[\s\u200b-\u200f\u2060\ufeff\u00ad\uff01-\uff5e\-\u2010-\u2015\u2212]/],
          [GAME_ACCOUNT, /[\s\u200b-\u200f\u2060\ufeff\u00ad\uff01-\uff5e]/],
        ] as const) {
          const cleaned = normaliseEntryValue(rule.kind, value);
          expect(drops.test(cleaned)).toBe(false);
          // And the check is made on that cleaned value: checking it again finds the same problems.
          expect(entryValueProblems(rule, cleaned)).toEqual(entryValueProblems(rule, value));
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('a QQ value is refused with its expected format, never a bare "wrong format"', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(0\d{4,11}|[1-9]\d{12,20}|\d{1,4})$/), (wrong) => {
        expect(entryValueProblems(QQ, wrong)[0]).toEqual({ code: 'pattern', expected: { kind: 'digits', min: 5, max: 12, leadingZero: false } });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('the field cleaning rule: the issue-25 examples', () => {
  it('987 654 321 and full-width １２３４５６７８ are what they say for the QQ number and the game account', () => {
    expect(normaliseEntryValue(QQ.kind, '987 654 321')).toBe('987654321');
    expect(normaliseEntryValue(GAME_ACCOUNT.kind, '987 654 321')).toBe('987654321');
    expect(normaliseEntryValue(GAME_ACCOUNT.kind, '１２３４５６７８')).toBe('12345678');
    expect(normaliseEntryValue(GAME_ACCOUNT.kind, ' wx_ｐｌａｙｅｒ-01 ')).toBe('wx_player-01');
    expect(normaliseEntryValue(ROLE_NAME.kind, ' 小明 二号 ')).toBe('小明 二号');
  });

  it('20 digits are refused for the QQ number, naming 5–12 digits', () => {
    expect(entryValueProblems(QQ, '12345678901234567890')).toEqual([{ code: 'pattern', expected: { kind: 'digits', min: 5, max: 12, leadingZero: false } }, { code: 'tooLong', limit: 12 }]);
  });
});
