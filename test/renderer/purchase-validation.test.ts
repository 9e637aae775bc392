import { describe, expect, it } from 'vitest';
import type { TemplateView } from '../../src/shared/ipc/views/catalog';
import { normaliseFieldValue, validateField, validateForm, validateUnits } from '../../src/renderer/src/lib/purchase-validation';
import { buildPurchaseEntries, templateToFormModel, type FieldModel, type FormModel } from '../../src/renderer/src/lib/template-form';

function modelOf(t: Partial<TemplateView>): FormModel {
  const result = templateToFormModel({ productRef: 1, variantRef: 0, productType: 'topup', purchaseSchemaRevision: 1, entryMode: 'single', purchaseFields: [], unitRule: { min: 1, max: 10, step: 1 }, ...t });
  if (!result.ok) throw new Error('unsupported');
  return result.model;
}

function fieldOf(overrides: Partial<TemplateView['purchaseFields'][number]>): FieldModel {
  const m = modelOf({
    purchaseFields: [{ fieldRef: 'f', label: 'F', type: 'text', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: false, ...overrides }],
  });
  const field = m.fields[0];
  if (field === undefined) throw new Error('no field');
  return field;
}

describe('validateUnits', () => {
  it('checks range and step from min', () => {
    const rule = { min: 10, max: 100, step: 10 };
    expect(validateUnits(rule, 10)).toBeNull();
    expect(validateUnits(rule, 100)).toBeNull();
    expect(validateUnits(rule, 5)?.code).toBe('unitsRange');
    expect(validateUnits(rule, 110)?.code).toBe('unitsRange');
    expect(validateUnits(rule, 15)?.code).toBe('unitsStep');
    expect(validateUnits(rule, 1.5)?.code).toBe('unitsRange');
  });
});

describe('validateField', () => {
  it('requires required values and lets empty optional ones pass', () => {
    expect(validateField(fieldOf({}), ' ')).toEqual({ code: 'required' });
    expect(validateField(fieldOf({ required: false, type: 'email' }), '')).toBeNull();
  });

  it('checks each type', () => {
    expect(validateField(fieldOf({ type: 'mobile' }), '13800138000')).toBeNull();
    expect(validateField(fieldOf({ type: 'mobile' }), '2380013800')).toEqual({ code: 'mobile' });
    expect(validateField(fieldOf({ type: 'email' }), 'a@b.cn')).toBeNull();
    expect(validateField(fieldOf({ type: 'email' }), 'a@b')).toEqual({ code: 'email' });
    expect(validateField(fieldOf({ type: 'integer' }), '-12')).toBeNull();
    expect(validateField(fieldOf({ type: 'integer' }), '1.2')).toEqual({ code: 'integer' });
    const select = fieldOf({ type: 'select', options: [{ value: 'a', label: 'A' }] });
    expect(validateField(select, 'a')).toBeNull();
    expect(validateField(select, 'b')).toEqual({ code: 'option' });
  });

  it('checks lengths (in characters) and the whole-value pattern', () => {
    expect(validateField(fieldOf({ minLength: 3 }), '中文')).toEqual({ code: 'tooShort', limit: 3 });
    expect(validateField(fieldOf({ maxLength: 2 }), 'abc')).toEqual({ code: 'tooLong', limit: 2 });
    expect(validateField(fieldOf({ pattern: '[a-z]+' }), 'abc')).toBeNull();
    expect(validateField(fieldOf({ pattern: '[a-z]+' }), 'abc1')).toEqual({ code: 'pattern', expected: { kind: 'pattern', source: '[a-z]+' } });
  });
});

describe('validateForm', () => {
  it('reports every problem per group and counts them', () => {
    const m = modelOf({
      entryMode: 'perUnit',
      unitRule: { min: 1, max: 5, step: 1 },
      purchaseFields: [{ fieldRef: 'mobile', label: 'Mobile', type: 'mobile', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true }],
    });
    const errors = validateForm(m, 2, [{ mobile: '13800138000' }, { mobile: '' }]);
    expect(errors.units).toBeNull();
    expect(errors.groups).toEqual([{}, { mobile: { code: 'required' } }]);
    expect(errors.count).toBe(1);
    expect(validateForm(m, 9, []).units?.code).toBe('unitsRange');
  });

  it('has no groups for entryMode none', () => {
    const m = modelOf({ entryMode: 'none' });
    expect(validateForm(m, 1, [])).toEqual({ units: null, groups: [], count: 0 });
  });
});

describe('the form checks and sends the cleaned value (shared with core)', () => {
  const m = modelOf({
    entryMode: 'perUnit',
    unitRule: { min: 1, max: 5, step: 1 },
    purchaseFields: [{ fieldRef: 'mobile', label: 'Mobile', type: 'mobile', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true }],
  });
  const mobile = m.fields[0];

  it('accepts a pasted number with spaces, full-width digits or +86, and shows it cleaned', () => {
    if (mobile === undefined) throw new Error('no field');
    for (const typed of [' 138 0013 8000 ', '１３８００１３８０００', '138-0013-8000', '+86 138 0013 8000']) {
      expect(validateField(mobile, typed)).toBeNull();
      expect(normaliseFieldValue(mobile, typed)).toBe('13800138000');
    }
    expect(validateField(mobile, '138 0013 800')).toEqual({ code: 'mobile' });
  });

  it('builds the purchase entries from the cleaned values (what the confirmation shows is what is sent)', () => {
    expect(buildPurchaseEntries(m, [{ mobile: ' 138 0013 8000 ' }, { mobile: '+86 139-0013-9000' }])).toEqual([{ mobile: '13800138000' }, { mobile: '13900139000' }]);
  });
});
