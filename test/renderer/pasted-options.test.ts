// The paste box's option cells (renderer/lib/pasted-options.ts, contract §7.11 "Filled by label"): a
// label or a code becomes the code, a line naming no option (or several) is refused and left out, and
// an empty option cell keeps the option the buyer had chosen in that unit (typed fields never carry over).
import { describe, expect, it } from 'vitest';
import { translate } from '../../src/renderer/src/i18n/translate';
import type { Locale } from '../../src/renderer/src/i18n/locale';
import { optionProblemParts, type OptionProblem } from '../../src/renderer/src/lib/option-problem-words';
import { keepChosenOptions, readPastedRows } from '../../src/renderer/src/lib/pasted-options';
import { templateToFormModel, type FieldModel } from '../../src/renderer/src/lib/template-form';

function fields(): readonly FieldModel[] {
  const result = templateToFormModel({
    productRef: 7,
    variantRef: 0,
    productType: 'topup',
    purchaseSchemaRevision: 1,
    entryMode: 'perUnit',
    unitRule: { min: 1, max: 10, step: 1 },
    purchaseFields: [
      {
        fieldRef: 'zone',
        label: '游戏区服',
        type: 'select',
        required: true,
        pattern: null,
        minLength: null,
        maxLength: null,
        options: [
          { value: 'android-qq', label: '安卓QQ区' },
          { value: 'ios-qq', label: '苹果QQ区' },
        ],
        placeholder: null,
        sensitive: false,
      },
      { fieldRef: 'account', label: '游戏账号', type: 'text', required: true, pattern: null, minLength: 5, maxLength: 30, options: null, placeholder: null, sensitive: true },
      { fieldRef: 'roleName', label: '角色名', type: 'text', required: false, pattern: null, minLength: null, maxLength: 20, options: null, placeholder: null, sensitive: false },
    ],
  });
  if (!result.ok) throw new Error('unsupported');
  return result.model.fields;
}

describe('pasted option cells', () => {
  it('puts the code of a label, a code or a loosely typed label in the form', () => {
    const reading = readPastedRows(
      [
        ['苹果QQ区', '987 654 321', '小明'],
        ['android-qq', 'player2'],
        ['苹果ｑｑ 区', 'player3', ''],
      ],
      fields(),
    );
    expect(reading.refused).toEqual([]);
    expect(reading.groups).toEqual([
      { zone: 'ios-qq', account: '987 654 321', roleName: '小明' },
      { zone: 'android-qq', account: 'player2', roleName: '' },
      { zone: 'ios-qq', account: 'player3', roleName: '' },
    ]);
  });

  it('refuses a line whose option cell names no option, naming the line, the cell and the labels; the others go on', () => {
    const reading = readPastedRows(
      [
        ['苹果QQ区', 'player1'],
        ['苹果Q区', 'player2'],
        ['安卓QQ区', 'player3'],
      ],
      fields(),
    );
    expect(reading.groups.map((group) => group.account)).toEqual(['player1', 'player3']);
    expect(reading.refused).toEqual([{ line: 2, problems: [{ fieldRef: 'zone', field: '游戏区服', given: '苹果Q区', reason: 'unknown', labels: ['安卓QQ区', '苹果QQ区'] }] }]);
  });

  it('keeps an option already chosen when the pasted cell is empty, and only options', () => {
    const reading = readPastedRows(
      [
        ['', 'player1', ''],
        ['安卓QQ区', 'player2'],
        ['', 'player3'],
      ],
      fields(),
    );
    expect(reading.groups[0]).toEqual({ zone: '', account: 'player1', roleName: '' });
    const shown = [
      { zone: 'ios-qq', account: 'old1', roleName: '旧角色' },
      { zone: 'ios-qq', account: 'old2', roleName: '' },
    ];
    expect(keepChosenOptions(reading.groups, shown, fields())).toEqual([
      { zone: 'ios-qq', account: 'player1', roleName: '' },
      { zone: 'android-qq', account: 'player2', roleName: '' },
      { zone: '', account: 'player3', roleName: '' },
    ]);
  });
});

describe('the words of an option value that names no option', () => {
  const words = (locale: Locale, problem: OptionProblem): string =>
    optionProblemParts((key, params) => translate(locale, key, params), locale, problem)
      .map((part) => (part.untranslated === null ? part.text : `[${part.text}]`))
      .join('');

  it('names the field, the value and the labels (these marked as not ours), listed as the language lists choices', () => {
    const unknown: OptionProblem = { field: '游戏区服', given: '苹果Q区', reason: 'unknown', labels: ['安卓QQ区', '苹果QQ区', '苹果微信区'] };
    expect(words('zh-CN', unknown)).toBe('[游戏区服]「[苹果Q区]」不是可选项，可选：[安卓QQ区、苹果QQ区或苹果微信区]');
    expect(words('en', unknown)).toBe('[游戏区服] “[苹果Q区]” is not one of the options: [安卓QQ区, 苹果QQ区, or 苹果微信区]');
    const ambiguous: OptionProblem = { field: 'Zone', given: 'qq1', reason: 'ambiguous', labels: ['QQ 1', 'qq1 '] };
    expect(words('zh-CN', ambiguous)).toBe('[Zone]「[qq1]」可对应[QQ 1或qq1 ]，请填写完整的选项名称');
  });
});
