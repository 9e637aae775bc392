import { describe, expect, it } from 'vitest';
import type { TemplateView } from '../../src/shared/ipc/views/catalog';
import {
  buildPurchaseEntries,
  groupCount,
  groupsFromRows,
  snapUnits,
  templateToFormModel,
  type FormModel,
} from '../../src/renderer/src/lib/template-form';

type Field = TemplateView['purchaseFields'][number];

function field(overrides: Partial<Field> & { fieldRef: string }): Field {
  return { label: overrides.fieldRef, type: 'text', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: false, ...overrides };
}

function template(overrides: Partial<TemplateView>): TemplateView {
  return { productRef: 7, variantRef: 2, productType: 'topup', purchaseSchemaRevision: 3, entryMode: 'single', purchaseFields: [], unitRule: { min: 1, max: 10, step: 1 }, ...overrides };
}

function model(overrides: Partial<TemplateView>): FormModel {
  const result = templateToFormModel(template(overrides));
  if (!result.ok) throw new Error(`unsupported: ${result.unsupported.reason}`);
  return result.model;
}

describe('templateToFormModel', () => {
  it('keeps every entry mode and field type, anchoring patterns', () => {
    const m = model({
      entryMode: 'perUnit',
      purchaseFields: [
        field({ fieldRef: 'mobile', type: 'mobile' }),
        field({ fieldRef: 'qq', type: 'integer', pattern: '\\d{5,11}', required: false }),
        field({ fieldRef: 'region', type: 'select', options: [{ value: 'n', label: 'North' }] }),
      ],
    });
    expect(m.entryMode).toBe('perUnit');
    expect(m.fields.map((f) => f.type)).toEqual(['mobile', 'integer', 'select']);
    expect(m.fields[1]?.pattern?.test('12345')).toBe(true);
    expect(m.fields[1]?.pattern?.test('12345x')).toBe(false);
    expect(m.revision).toBe(3);
  });

  it('refuses what this build does not understand instead of guessing', () => {
    expect(templateToFormModel(template({ entryMode: 'perAccount' }))).toEqual({ ok: false, unsupported: { reason: 'entryMode', raw: 'perAccount' } });
    expect(templateToFormModel(template({ purchaseFields: [field({ fieldRef: 'x', type: 'date' })] }))).toMatchObject({ ok: false, unsupported: { reason: 'fieldType' } });
    expect(templateToFormModel(template({ purchaseFields: [field({ fieldRef: 's', type: 'select', options: [] })] }))).toMatchObject({ ok: false, unsupported: { reason: 'noOptions' } });
    expect(templateToFormModel(template({ purchaseFields: [field({ fieldRef: 'p', pattern: '([' })] }))).toMatchObject({ ok: false, unsupported: { reason: 'pattern' } });
  });
});

describe('entry groups', () => {
  it('counts none / single / perUnit groups', () => {
    expect(groupCount('none', 5)).toBe(0);
    expect(groupCount('single', 5)).toBe(1);
    expect(groupCount('perUnit', 5)).toBe(5);
  });

  it('builds entries without empty values', () => {
    const m = model({ entryMode: 'perUnit', purchaseFields: [field({ fieldRef: 'a' }), field({ fieldRef: 'b', required: false })] });
    expect(buildPurchaseEntries(m, [{ a: ' 1 ', b: '' }])).toEqual([{ a: '1' }]);
    expect(buildPurchaseEntries(model({ entryMode: 'none' }), [])).toBeUndefined();
  });

  it('makes one entry group per pasted row, values in field order', () => {
    const two = model({ entryMode: 'perUnit', purchaseFields: [field({ fieldRef: 'account' }), field({ fieldRef: 'server' })] });
    expect(groupsFromRows([['u1', 's1'], ['u2', 's2'], ['u3']], two.fields)).toEqual([
      { account: 'u1', server: 's1' },
      { account: 'u2', server: 's2' },
      { account: 'u3', server: '' },
    ]);
  });

  it('snaps units to the rule', () => {
    const rule = { min: 2, max: 20, step: 5 };
    expect(snapUnits(rule, 0)).toBe(2);
    expect(snapUnits(rule, 8)).toBe(7);
    expect(snapUnits(rule, 100)).toBe(17);
  });
});
