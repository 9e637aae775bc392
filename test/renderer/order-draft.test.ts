// The order model: for any sequence of what a person does to the quantity box and any
// template rule, the order that would be sent carries exactly the units the box shows (read as a person
// reads it) and the total shown, or nothing is sent. The oracle below reads the box independently of
// the model's parser.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalUnitsText,
  evaluateDraft,
  newDraft,
  parseUnitsText,
  stepUnits,
  withFieldValue,
  withPastedGroups,
  withUnitsText,
  type OrderDraft,
} from '../../src/renderer/src/lib/order-draft';
import type { FormModel, UnitRule } from '../../src/renderer/src/lib/template-form';

function model(rule: UnitRule, entryMode: FormModel['entryMode'] = 'none'): FormModel {
  return {
    productRef: 1001,
    variantRef: 2,
    productType: entryMode === 'none' ? 'card' : 'topup',
    revision: 1,
    entryMode,
    fields:
      entryMode === 'none'
        ? []
        : [{ fieldRef: 'account', label: '账号', type: 'mobile', kind: 'mobile', expected: { kind: 'mobile' }, required: true, pattern: null, minLength: null, maxLength: null, options: [], placeholder: null, sensitive: false }],
    unitRule: rule,
  };
}

/** What a person reading the box takes it to say: a plain whole number, or nothing. */
function humanReading(text: string): number | null {
  const cleaned = text.normalize('NFKC').trim();
  return /^\d{1,12}$/.test(cleaned) ? Number(cleaned) : null;
}

function allowed(rule: UnitRule, units: number): boolean {
  return units >= rule.min && units <= rule.max && (units - rule.min) % rule.step === 0;
}

type Edit =
  | { kind: 'type'; char: string }
  | { kind: 'backspace' }
  | { kind: 'clear' }
  | { kind: 'retype'; text: string }
  | { kind: 'paste'; text: string }
  | { kind: 'step'; direction: 1 | -1 }
  | { kind: 'blur' };

const chars = fc.constantFrom('0', '1', '2', '5', '9', '５', '０', 'a', '-', '.', ' ', 'e', '+', '，');
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 5, arbitrary: chars.map((char) => ({ kind: 'type', char }) as const) },
  fc.constant({ kind: 'backspace' } as const),
  fc.constant({ kind: 'clear' } as const),
  fc.stringMatching(/^[0-9]{0,4}$/).map((text) => ({ kind: 'retype', text }) as const),
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(' 12 ', '1,000', '3.0', '１２', '-1', '1e2', '0x10', '051')).map((text) => ({ kind: 'paste', text }) as const),
  fc.constantFrom(1, -1).map((direction) => ({ kind: 'step', direction }) as const),
  fc.constant({ kind: 'blur' } as const),
);

const rule: fc.Arbitrary<UnitRule> = fc
  .record({ min: fc.integer({ min: 1, max: 20 }), span: fc.integer({ min: 0, max: 60 }), step: fc.integer({ min: 1, max: 5 }) })
  .map(({ min, span, step }) => ({ min, max: min + span, step }));

function apply(draft: OrderDraft, edit: Edit, unitRule: UnitRule): OrderDraft {
  switch (edit.kind) {
    case 'type':
      return withUnitsText(draft, draft.unitsText + edit.char);
    case 'backspace':
      return withUnitsText(draft, draft.unitsText.slice(0, -1));
    case 'clear':
      return withUnitsText(draft, '');
    case 'retype':
      return withUnitsText(draft, edit.text);
    case 'paste':
      return withUnitsText(draft, draft.unitsText + edit.text);
    case 'step':
      return stepUnits(draft, unitRule, edit.direction);
    case 'blur':
      return canonicalUnitsText(draft, unitRule);
  }
}

describe('the order model', () => {
  it('sends the units the box shows and the total shown, or nothing (any edits, any rule)', () => {
    fc.assert(
      fc.property(rule, fc.array(edit, { maxLength: 25 }), fc.integer({ min: 1, max: 1_000_000 }), (unitRule, edits, priceFen) => {
        const form = model(unitRule);
        let draft = newDraft(unitRule);
        for (const e of edits) draft = apply(draft, e, unitRule);
        const state = evaluateDraft(draft, form, priceFen);
        const shown = humanReading(draft.unitsText);
        if (state.order === null) {
          // Nothing is sent, and only because the box does not say an allowed number.
          expect(shown !== null && allowed(unitRule, shown)).toBe(false);
          expect(state.errors.units).not.toBeNull();
          return;
        }
        expect(state.order.units).toBe(shown);
        expect(allowed(unitRule, state.order.units)).toBe(true);
        expect(state.order.totalFen).toBe(state.order.units * priceFen);
        expect(state.totalFen).toBe(state.order.totalFen);
        expect(state.order.unitPriceFen).toBe(priceFen);
      }),
      { numRuns: 2000 },
    );
  });

  it('never shows a total for units it would not send', () => {
    fc.assert(
      fc.property(rule, fc.string({ maxLength: 6 }), (unitRule, text) => {
        const state = evaluateDraft(withUnitsText(newDraft(unitRule), text), model(unitRule), 925);
        if (state.totalFen !== null) expect(state.order?.totalFen).toBe(state.totalFen);
        else expect(state.order).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('the stepper moves within the rule from any valid value and never clamps what was typed', () => {
    fc.assert(
      fc.property(rule, fc.integer({ min: 0, max: 100 }), fc.constantFrom(1 as const, -1 as const), (unitRule, start, direction) => {
        const typed = withUnitsText(newDraft(unitRule), String(start));
        const stepped = stepUnits(typed, unitRule, direction);
        const parsed = parseUnitsText(stepped.unitsText, unitRule);
        expect(parsed.ok).toBe(true);
        // Typing alone never changes the text: an out-of-rule value stays as typed, with an error.
        expect(typed.unitsText).toBe(String(start));
        expect(canonicalUnitsText(typed, unitRule).unitsText).toBe(String(start));
      }),
    );
  });

  it('reads the sequences a person types the way the issue found them', () => {
    const rule1to50: UnitRule = { min: 1, max: 50, step: 1 };
    const form = model(rule1to50);
    const cleared = withUnitsText(newDraft(rule1to50), '');
    expect(evaluateDraft(cleared, form, 1850).errors.units?.code).toBe('unitsEmpty');
    expect(evaluateDraft(cleared, form, 1850).totalFen).toBeNull();
    const fiftyOne = withUnitsText(cleared, '51');
    expect(evaluateDraft(fiftyOne, form, 1850).errors.units?.code).toBe('unitsRange');
    expect(evaluateDraft(fiftyOne, form, 1850).order).toBeNull();
    expect(evaluateDraft(withUnitsText(cleared, '0'), form, 1850).order).toBeNull();
    expect(evaluateDraft(withUnitsText(cleared, 'abc'), form, 1850).errors.units?.code).toBe('unitsNotWhole');
    expect(evaluateDraft(withUnitsText(cleared, '2.5'), form, 1850).errors.units?.code).toBe('unitsNotWhole');
    const five = evaluateDraft(withUnitsText(cleared, '５'), form, 1850);
    expect(five.order?.units).toBe(5);
    expect(five.order?.totalFen).toBe(9250);
    const stepped: UnitRule = { min: 1, max: 5, step: 2 };
    expect(evaluateDraft(withUnitsText(newDraft(stepped), '2'), model(stepped), 100).errors.units?.code).toBe('unitsStep');
    expect(evaluateDraft(withUnitsText(newDraft(stepped), '9'), model(stepped), 100).errors.units?.code).toBe('unitsRange');
  });

  it('keeps typed accounts while the quantity goes down and up again, and sends one group per unit', () => {
    const unitRule: UnitRule = { min: 1, max: 5, step: 1 };
    const form = model(unitRule, 'perUnit');
    let draft = withUnitsText(newDraft(unitRule), '3');
    draft = withFieldValue(draft, form, 0, 'account', '13800138000');
    draft = withFieldValue(draft, form, 1, 'account', '13800138001');
    draft = withFieldValue(draft, form, 2, 'account', '13800138002');
    draft = withUnitsText(draft, '');
    expect(evaluateDraft(draft, form, 100).groups).toHaveLength(3);
    draft = withUnitsText(draft, '1');
    expect(evaluateDraft(draft, form, 100).order?.purchaseEntries).toEqual([{ account: '13800138000' }]);
    draft = withUnitsText(draft, '3');
    expect(evaluateDraft(draft, form, 100).order?.purchaseEntries).toEqual([{ account: '13800138000' }, { account: '13800138001' }, { account: '13800138002' }]);
    const pasted = withPastedGroups([{ account: '13900139000' }, { account: '13900139001' }]);
    expect(pasted.unitsText).toBe('2');
    expect(evaluateDraft(pasted, form, 100).order?.units).toBe(2);
  });
});
