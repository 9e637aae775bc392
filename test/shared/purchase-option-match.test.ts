// Which option a typed, pasted or file value names (shared/purchase-option-match.ts, contract §7.11):
// codes, labels, a forgiving match accepted only when it names one option, and the errors' material.
import { describe, expect, it } from 'vitest';
import { looseOptionKey, matchOption, optionLabelList } from '../../src/shared/purchase-option-match';

const ZONES = [
  { value: 'android-qq', label: '安卓QQ区' },
  { value: 'ios-qq', label: '苹果QQ区' },
  { value: 'android-wx', label: '安卓微信区' },
  { value: 'ios-wx', label: '苹果微信区' },
];

describe('matchOption', () => {
  it('takes an exact code, trimmed', () => {
    expect(matchOption(ZONES, 'ios-qq')).toEqual({ kind: 'matched', value: 'ios-qq', label: '苹果QQ区', by: 'code' });
    expect(matchOption(ZONES, '  android-wx\t')).toEqual({ kind: 'matched', value: 'android-wx', label: '安卓微信区', by: 'code' });
  });

  it('takes an exact label and answers its code', () => {
    expect(matchOption(ZONES, '苹果QQ区')).toEqual({ kind: 'matched', value: 'ios-qq', label: '苹果QQ区', by: 'label' });
    expect(matchOption(ZONES, '\u3000安卓微信区 ')).toMatchObject({ kind: 'matched', value: 'android-wx' });
  });

  it('forgives full-width letters, case of ASCII letters and spaces inside', () => {
    expect(matchOption(ZONES, '苹果ＱＱ区')).toEqual({ kind: 'matched', value: 'ios-qq', label: '苹果QQ区', by: 'loose' });
    expect(matchOption(ZONES, '苹果qq区')).toMatchObject({ kind: 'matched', value: 'ios-qq', by: 'loose' });
    expect(matchOption(ZONES, '苹果 QQ 区')).toMatchObject({ kind: 'matched', value: 'ios-qq', by: 'loose' });
    expect(matchOption(ZONES, '苹果\u3000ｑｑ\u200B区')).toMatchObject({ kind: 'matched', value: 'ios-qq', by: 'loose' });
    expect(matchOption(ZONES, 'IOS-QQ')).toMatchObject({ kind: 'matched', value: 'ios-qq', by: 'loose' });
    expect(matchOption(ZONES, 'ｉｏｓ－ｑｑ')).toMatchObject({ kind: 'matched', value: 'ios-qq', by: 'loose' });
  });

  it('never takes a part of a label, nor a neighbour', () => {
    expect(matchOption(ZONES, '苹果QQ')).toEqual({ kind: 'unknown', given: '苹果QQ' });
    expect(matchOption(ZONES, 'QQ区')).toEqual({ kind: 'unknown', given: 'QQ区' });
    expect(matchOption(ZONES, '苹果Q区')).toEqual({ kind: 'unknown', given: '苹果Q区' });
    expect(matchOption(ZONES, '987654321')).toEqual({ kind: 'unknown', given: '987654321' });
  });

  it('does not fold case beyond ASCII', () => {
    const greek = [{ value: 'a', label: 'Ωmega' }];
    expect(matchOption(greek, 'ωmega')).toEqual({ kind: 'unknown', given: 'ωmega' });
    expect(matchOption(greek, 'ΩMEGA')).toMatchObject({ kind: 'matched', value: 'a' });
  });

  it('refuses a forgiving match that names two options', () => {
    const options = [
      { value: 'qq-1', label: 'QQ区 1' },
      { value: 'qq-one', label: 'qq区1' },
    ];
    expect(matchOption(options, 'Qq区1')).toEqual({ kind: 'ambiguous', given: 'Qq区1', labels: ['QQ区 1', 'qq区1'] });
    // Exact labels still tell them apart.
    expect(matchOption(options, 'qq区1')).toMatchObject({ kind: 'matched', value: 'qq-one', by: 'label' });
  });

  it('refuses a value that is one option’s code and another option’s label', () => {
    const options = [
      { value: '1', label: '一区' },
      { value: '2', label: '1' },
    ];
    expect(matchOption(options, '1')).toEqual({ kind: 'ambiguous', given: '1', labels: ['一区', '1'] });
    expect(matchOption(options, '2')).toMatchObject({ kind: 'matched', value: '2', by: 'code' });
  });

  it('refuses two options sharing one label with different codes', () => {
    const options = [
      { value: 'a', label: '官服' },
      { value: 'b', label: '官服' },
    ];
    expect(matchOption(options, '官服')).toEqual({ kind: 'ambiguous', given: '官服', labels: ['官服'] });
  });

  it('takes an option whose code is also its label', () => {
    expect(matchOption([{ value: 'CN', label: 'CN' }], 'CN')).toMatchObject({ kind: 'matched', value: 'CN', by: 'code' });
  });

  it('leaves an empty value to the required rule', () => {
    expect(matchOption(ZONES, '')).toEqual({ kind: 'empty' });
    expect(matchOption(ZONES, ' \u3000 ')).toEqual({ kind: 'empty' });
  });
});

describe('the material of an error', () => {
  it('lists every label in the template’s order', () => {
    expect(optionLabelList(ZONES)).toEqual(['安卓QQ区', '苹果QQ区', '安卓微信区', '苹果微信区']);
    expect(optionLabelList([{ value: 'x', label: '' }])).toEqual(['x']);
  });

  it('the forgiving key', () => {
    expect(looseOptionKey(' 苹果 ＱＱ 区 ')).toBe('苹果qq区');
  });
});
