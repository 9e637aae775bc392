// A field's kind and expected format, decided from what its template says (contract §5.1): what the
// pattern admits first, then the words of the label and fieldRef, then the placeholder. Every field
// of the sandbox's catalog is checked against the kind a merchant would expect.
import { describe, expect, it } from 'vitest';
import { describeFormat } from '../../src/core/orders/field-format-words';
import { CATALOG_VOCABULARY } from '../../src/sandbox/catalog/catalog-vocabulary';
import type { PurchaseFieldType } from '../../src/shared/merchant/known-values';
import { expectedFormat } from '../../src/shared/purchase-field-format';
import { fieldKind, type FieldEvidence } from '../../src/shared/purchase-field-kind';
import { patternShape } from '../../src/shared/purchase-pattern-shape';

const text = (label: string, more: Partial<FieldEvidence> = {}): FieldEvidence => ({ type: 'text', fieldRef: 'f', label, pattern: null, placeholder: null, ...more });

describe('patternShape', () => {
  it('reads a plain digit pattern: its length and whether it may start with 0', () => {
    expect(patternShape('^[1-9]\\d{4,11}$')?.digits).toEqual({ min: 5, max: 12, leadingZero: false });
    expect(patternShape('^[1-9][0-9]{8}$')?.digits).toEqual({ min: 9, max: 9, leadingZero: false });
    expect(patternShape('\\d{6}')?.digits).toEqual({ min: 6, max: 6, leadingZero: true });
    expect(patternShape('^(?:\\d+)$')?.digits).toEqual({ min: 1, max: null, leadingZero: true });
    expect(patternShape('^[0-9]{5,}$')?.digits).toEqual({ min: 5, max: null, leadingZero: true });
  });

  it('knows a digits-only pattern it cannot describe simply, and does not describe it', () => {
    const mobile = patternShape('^1[3-9]\\d{9}$');
    expect(mobile?.digitsOnly).toBe(true);
    expect(mobile?.digits).toBeNull();
    expect(patternShape('^[2-8]\\d{3}$')?.digits).toBeNull();
  });

  it('tells an ASCII identifier from a pattern that admits spaces or other scripts', () => {
    expect(patternShape('^[A-Za-z0-9_]{6,20}$')).toMatchObject({ digitsOnly: false, visibleAscii: true, allowsSpace: false });
    expect(patternShape('^[a-z.\\-]+@[a-z.]+$')).toMatchObject({ visibleAscii: true, allowsSpace: false });
    expect(patternShape('^[A-Za-z ]+$')).toMatchObject({ visibleAscii: false, allowsSpace: true });
    expect(patternShape('^\\w+\\s?\\w+$')?.allowsSpace).toBe(true);
    expect(patternShape('^[\u4e00-\u9fa5]{2,8}$')).toMatchObject({ visibleAscii: false, allowsSpace: false, digitsOnly: false });
  });

  it('reads nothing it would have to guess at: alternation, look-around, negated classes, any character', () => {
    for (const source of ['^\\d{5}|\\d{9}$', '^(?!0)\\d+$', '^[^@]+$', '^.+$', '^\\d+\\b$', '', '^(\\d)\\1$', '^[9-1]$', '^\\d{3,2}$']) {
      expect(patternShape(source), source).toBeNull();
    }
  });
});

describe('fieldKind', () => {
  it('QQ number, UID and game account: ids; role name and server name: free text', () => {
    expect(fieldKind(text('QQ号码', { fieldRef: 'qq', pattern: '^[1-9]\\d{4,11}$', placeholder: '请输入QQ号' }))).toBe('numericId');
    expect(fieldKind({ ...text('游戏UID', { fieldRef: 'uid', pattern: '^[1-9]\\d{8}$' }), type: 'integer' })).toBe('numericId');
    expect(fieldKind(text('游戏账号', { fieldRef: 'account', placeholder: 'QQ号或微信号' }))).toBe('accountId');
    expect(fieldKind(text('角色名', { fieldRef: 'roleName' }))).toBe('text');
    expect(fieldKind(text('服务器名称', { fieldRef: 'server' }))).toBe('text');
  });

  it('the pattern outweighs the words: digits only is an id, a pattern admitting spaces keeps them', () => {
    expect(fieldKind(text('备注', { pattern: '^\\d{6}$' }))).toBe('numericId');
    expect(fieldKind(text('游戏账号', { pattern: '^[A-Za-z ]{2,20}$' }))).toBe('text');
    expect(fieldKind(text('邀请码', { pattern: '^[A-Z0-9]{8}$' }))).toBe('accountId');
    expect(fieldKind(text('姓名', { pattern: '^[\u4e00-\u9fa5]{2,8}$' }))).toBe('text');
  });

  it('reads the label and the fieldRef: QQ, UID, ID, 账号, account, a login name', () => {
    for (const [label, fieldRef] of [['角色ID', 'f'], ['Player ID', 'f'], ['充值对象', 'playerId'], ['x', 'gameUid'], ['会员账号', 'f'], ['帐号', 'f'], ['微信号', 'f'], ['用户名', 'f'], ['x', 'userName'], ['ＱＱ', 'f'], ['x', 'qqNumber']]) {
      expect(fieldKind(text(label ?? '', { fieldRef: fieldRef ?? 'f' })), `${label}/${fieldRef}`).toBe('accountId');
    }
  });

  it('names and notes stay free text, even when a hint mentions an account', () => {
    for (const label of ['角色名', '昵称', '账号昵称', '备注', '收货地址', 'Nickname', 'Note']) {
      expect(fieldKind(text(label, { placeholder: '与游戏账号一致' })), label).toBe('text');
    }
    expect(fieldKind(text('Video', { fieldRef: 'valid' }))).toBe('text');
    expect(fieldKind(text('充值对象', { placeholder: '请输入账号' }))).toBe('accountId');
  });

  it('the other types keep their own kind', () => {
    for (const type of ['mobile', 'email', 'select'] satisfies PurchaseFieldType[]) expect(fieldKind({ ...text('QQ'), type })).toBe(type);
    expect(fieldKind({ ...text('数量'), type: 'integer' })).toBe('integer');
  });

  it('gives every field of the sandbox catalog the kind a merchant would expect', () => {
    const expected: Record<string, string> = {
      '充值手机号': 'mobile', 'QQ号码': 'numericId', '会员账号': 'accountId', '到账通知邮箱': 'email', '游戏区服': 'select',
      '游戏账号': 'accountId', '角色名': 'text', '游戏UID': 'numericId', '服务器': 'select', '网易通行证': 'email', '服务器名称': 'text',
    };
    const seen = new Map<string, string>();
    for (const field of CATALOG_VOCABULARY.flatMap((top) => top.leaves.flatMap((leaf) => leaf.archetypes.flatMap((a) => a.fields)))) {
      seen.set(field.label, fieldKind(field));
    }
    expect(Object.fromEntries(seen)).toEqual(expected);
  });
});

describe('expectedFormat', () => {
  const of = (more: Partial<Parameters<typeof expectedFormat>[0]>) => expectedFormat({ type: 'text', pattern: null, minLength: null, maxLength: null, placeholder: null, ...more });

  it('is computed from the pattern and the length bounds, never hard-coded', () => {
    expect(of({ pattern: '^[1-9]\\d{4,11}$', minLength: 5, maxLength: 12 })).toEqual({ kind: 'digits', min: 5, max: 12, leadingZero: false });
    expect(of({ pattern: '^[1-9]\\d{4,11}$', maxLength: 10 })).toEqual({ kind: 'digits', min: 5, max: 10, leadingZero: false });
    expect(of({ pattern: '^\\d{4,}$', minLength: 6 })).toEqual({ kind: 'digits', min: 6, max: null, leadingZero: true });
    expect(of({ pattern: '^\\d{6}$' })).toEqual({ kind: 'digits', min: 6, max: 6, leadingZero: true });
  });

  it('falls back to the type, then the placeholder, then the pattern itself', () => {
    expect(of({ type: 'mobile', pattern: '^1[3-9]\\d{9}$', placeholder: '请输入11位手机号' })).toEqual({ kind: 'mobile' });
    expect(of({ pattern: '^[A-Z]{2}\\d{6}$', placeholder: '如 AB123456' })).toEqual({ kind: 'placeholder', text: '如 AB123456' });
    expect(of({ pattern: '^[A-Z]{2}\\d{6}$', placeholder: '  ' })).toEqual({ kind: 'pattern', source: '^[A-Z]{2}\\d{6}$' });
    expect(of({ pattern: '^\\d{6}$', minLength: 8 })).toEqual({ kind: 'pattern', source: '^\\d{6}$' });
    expect(of({})).toBeNull();
  });

  it('is worded in core English for the CLI and batch rows', () => {
    expect(describeFormat({ kind: 'digits', min: 5, max: 12, leadingZero: false })).toBe('5–12 digits, not starting with 0');
    expect(describeFormat({ kind: 'digits', min: 9, max: 9, leadingZero: true })).toBe('9 digits');
    expect(describeFormat({ kind: 'digits', min: 1, max: null, leadingZero: true })).toBe('at least 1 digit');
    expect(describeFormat({ kind: 'mobile' })).toBe('a mainland mobile number of 11 digits starting with 1');
    expect(describeFormat({ kind: 'placeholder', text: '如 AB123456' })).toBe('the format the merchant describes as "如 AB123456"');
    expect(describeFormat({ kind: 'pattern', source: '^[A-Z]{2}$' })).toBe("a value matching the merchant's pattern ^[A-Z]{2}$");
  });
});
