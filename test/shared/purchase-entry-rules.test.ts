// The purchase rules' one home: units, entry group counts and field patterns, checked by the order form
// and by core with the same functions (the sandbox, an independent merchant, keeps its own).
import { describe, expect, it } from 'vitest';
import { validatePurchase } from '../../src/core/orders/purchase-validation';
import { PurchaseValidationError, TemplateNotSupportedError } from '../../src/core/orders/order-errors';
import { validateUnits } from '../../src/renderer/src/lib/purchase-validation';
import { groupCount, templateToFormModel } from '../../src/renderer/src/lib/template-form';
import type { TemplateView } from '../../src/shared/ipc/views/catalog';
import type { PurchaseTemplate } from '../../src/shared/merchant/template';
import { compileEntryPattern, entryGroupCount, unitsProblem, type UnitsRule } from '../../src/shared/purchase-entry-rules';

const RULE: UnitsRule = { min: 1, max: 21, step: 5 };

function coreUnitsCodes(template: PurchaseTemplate, units: number): string[] {
  try {
    validatePurchase(template, { units, purchaseEntries: [] });
    return [];
  } catch (error) {
    if (!(error instanceof PurchaseValidationError)) throw error;
    return error.errors.filter((p) => p.path === 'units').map((p) => p.code);
  }
}

describe('purchase rules', () => {
  it('units: range, step, whole numbers', () => {
    const table: [number, ReturnType<typeof unitsProblem>][] = [
      [1, null], [6, null], [21, null], [0, 'range'], [26, 'range'], [2, 'step'], [20, 'step'], [1.5, 'range'], [Number.NaN, 'range'],
    ];
    for (const [units, problem] of table) expect([units, unitsProblem(RULE, units)]).toEqual([units, problem]);
  });

  it('the form and core agree on units, from the same rule', () => {
    const template = { entryMode: 'none', unitRule: RULE, purchaseFields: [] } as unknown as PurchaseTemplate;
    for (const units of [0, 1, 2, 6, 21, 26, 1.5]) {
      const form = validateUnits(RULE, units)?.code ?? null;
      const core = coreUnitsCodes(template, units)[0] ?? null;
      expect([units, form]).toEqual([units, { range: 'unitsRange', step: 'unitsStep', none: null }[unitsProblem(RULE, units) ?? 'none']]);
      expect([units, core]).toEqual([units, { range: 'UNITS_OUT_OF_RANGE', step: 'UNITS_STEP', none: null }[unitsProblem(RULE, units) ?? 'none']]);
    }
  });

  it('entry groups: none 0, single 1, perUnit one per unit', () => {
    expect([entryGroupCount('none', 3), entryGroupCount('single', 3), entryGroupCount('perUnit', 3), entryGroupCount('perUnit', 0), entryGroupCount('perUnit', 2.5)]).toEqual([0, 1, 3, 0, 0]);
    for (const units of [0, 1, 4]) expect(groupCount('perUnit', units)).toBe(entryGroupCount('perUnit', units));
  });

  it('patterns match the whole value, and an unreadable one is null on both sides', () => {
    const digits = compileEntryPattern('\\d{4}');
    expect(digits?.test('1234')).toBe(true);
    expect(digits?.test('12345')).toBe(false);
    expect(digits?.test('x1234')).toBe(false);
    expect(compileEntryPattern('a|b')?.test('ab')).toBe(false);
    expect(compileEntryPattern('(')).toBeNull();

    const field = { fieldRef: 'account', label: 'Account', type: 'text', required: true, pattern: '(', minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true };
    const template = { productRef: 1, variantRef: 0, productType: 'direct_recharge', purchaseSchemaRevision: 1, entryMode: 'single', unitRule: RULE, purchaseFields: [field] };
    expect(templateToFormModel(template as unknown as TemplateView)).toMatchObject({ ok: false, unsupported: { reason: 'pattern', fieldRef: 'account' } });
    expect(() => validatePurchase(template as unknown as PurchaseTemplate, { units: 1, purchaseEntries: [{ account: 'x' }] })).toThrow(TemplateNotSupportedError);
  });
});
