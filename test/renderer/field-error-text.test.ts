// A field's error names the expected format in the buyer's language, computed from the template:
// the QQ field of the sandbox reads "QQ号码：5–12 位数字，不以 0 开头", never only "格式不正确".
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../src/renderer/src/lib/field-error-text';
import { validateField } from '../../src/renderer/src/lib/purchase-validation';
import { templateToFormModel, type FieldModel } from '../../src/renderer/src/lib/template-form';
import type { Locale } from '../../src/renderer/src/i18n/locale';
import type { MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { translate, type Params } from '../../src/renderer/src/i18n/translate';
import type { TemplateView } from '../../src/shared/ipc/views/catalog';

type FieldView = TemplateView['purchaseFields'][number];

function fieldOf(overrides: Partial<FieldView>): FieldModel {
  const base: FieldView = { fieldRef: 'f', label: 'F', type: 'text', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: false };
  const result = templateToFormModel({ productRef: 1, variantRef: 0, productType: 'topup', purchaseSchemaRevision: 1, entryMode: 'single', purchaseFields: [{ ...base, ...overrides }], unitRule: { min: 1, max: 1, step: 1 } });
  const field = result.ok ? result.model.fields[0] : undefined;
  if (field === undefined) throw new Error('unsupported');
  return field;
}

function errorOf(locale: Locale, field: FieldModel, value: string): string | null {
  const t = (key: MessageKey, params?: Params): string => translate(locale, key, params);
  const error = validateField(field, value);
  return error === null ? null : fieldErrorText(t, field.label, error);
}

const QQ = fieldOf({ fieldRef: 'qq', label: 'QQ号码', pattern: '^[1-9]\\d{4,11}$', minLength: 5, maxLength: 12, placeholder: '请输入QQ号' });

describe('fieldErrorText: the expected format', () => {
  it('QQ: 5–12 digits, not starting with 0, in both languages (a short, a long and a leading-zero value)', () => {
    for (const wrong of ['1234', '12345678901234567890', '0123456', '12345a']) {
      expect(errorOf('zh-CN', QQ, wrong)).toBe('QQ号码：5–12 位数字，不以 0 开头');
      expect(errorOf('en', QQ, wrong)).toBe('QQ号码: 5–12 digits, not starting with 0');
    }
    expect(errorOf('zh-CN', QQ, '９８７ ６５４ ３２１')).toBeNull();
  });

  it('is computed from the actual pattern and bounds', () => {
    const uid = fieldOf({ label: '游戏UID', type: 'integer', pattern: '^[1-9]\\d{8}$' });
    expect(errorOf('zh-CN', uid, '12345')).toBe('游戏UID：9 位数字，不以 0 开头');
    expect(errorOf('en', uid, '12345')).toBe('游戏UID: 9 digits, not starting with 0');
    const code = fieldOf({ label: '验证码', pattern: '\\d{4,}', maxLength: null });
    expect(errorOf('zh-CN', code, '12')).toBe('验证码：至少 4 位数字');
    expect(errorOf('en', code, '12')).toBe('验证码: at least 4 digits');
    const pin = fieldOf({ label: 'PIN', pattern: '^\\d{6}$' });
    expect(errorOf('en', pin, '12')).toBe('PIN: 6 digits');
  });

  it('from the type for a mobile number, else the placeholder as the merchant’s hint, else the pattern', () => {
    const mobile = fieldOf({ label: '充值手机号', type: 'mobile', pattern: '^1[3-9]\\d{9}$' });
    expect(errorOf('zh-CN', mobile, '12000000000')).toBe('充值手机号：以 1 开头的 11 位手机号');
    const hinted = fieldOf({ label: '卡号', pattern: '^[A-Z]{2}\\d{6}$', placeholder: '如 AB123456' });
    expect(errorOf('zh-CN', hinted, 'ab1')).toBe('卡号：格式不正确（商户提示：如 AB123456）');
    expect(errorOf('en', hinted, 'ab1')).toBe('卡号: not in the expected format (the merchant’s hint: 如 AB123456)');
    const bare = fieldOf({ label: '卡号', pattern: '^[A-Z]{2}\\d{6}$' });
    expect(errorOf('zh-CN', bare, 'ab1')).toBe('卡号：格式不正确，应符合 ^[A-Z]{2}\\d{6}$');
  });
});
