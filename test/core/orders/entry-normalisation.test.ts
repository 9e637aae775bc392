// Core cleans top-up entries with the shared rule before it validates, and what it stores in the
// intent (and so what the outbox sends) is the cleaned value: ` 138 0013 8000 ` is recorded as
// 13800138000, never as typed; a value that stays invalid after cleaning is refused, nothing written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { PurchaseValidationError } from '../../../src/core/orders/order-errors';
import { getIntent } from '../../../src/core/orders/order-intent-store';
import { createOrderIntents } from '../../../src/core/orders/order-intents';
import { validatePurchase } from '../../../src/core/orders/purchase-validation';
import { storeTemplate } from '../../../src/core/orders/template-cache';
import { createScaledClock } from '../../../src/core/platform/clock';
import type { PurchaseField, PurchaseTemplate } from '../../../src/shared/merchant/template';
import { insertProduct } from '../db/catalog-fixtures';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const field = (fieldRef: string, type: string, required = true): PurchaseField => ({
  fieldRef,
  label: fieldRef,
  type,
  required,
  pattern: null,
  minLength: null,
  maxLength: null,
  options: null,
  placeholder: null,
  sensitive: true,
});

const TEMPLATE: PurchaseTemplate = {
  productRef: 7001,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 3,
  entryMode: 'perUnit',
  purchaseFields: [field('mobile', 'mobile'), field('qq', 'integer', false), field('mail', 'email', false), field('note', 'text', false)],
  unitRule: { min: 1, max: 5, step: 1 },
};

describe('validatePurchase cleans entries before checking them', () => {
  it('returns the cleaned values for every field type, and drops values that clean to nothing', () => {
    const entries = validatePurchase(TEMPLATE, {
      units: 2,
      purchaseEntries: [
        { mobile: ' 138 0013 8000 ', qq: ' 12 345 678 ', mail: ' Buyer@QQ.Com ', note: '  甲  ' },
        { mobile: '+86 139-0013-9000', qq: '\u3000', mail: '', note: '' },
      ],
    });
    expect(entries).toEqual([
      { mobile: '13800138000', qq: '12345678', mail: 'Buyer@qq.com', note: '甲' },
      { mobile: '13900139000' },
    ]);
  });

  it('refuses what stays invalid after cleaning, naming the field', () => {
    const refused = (() => {
      try {
        validatePurchase(TEMPLATE, { units: 1, purchaseEntries: [{ mobile: '138 0013 800', qq: '1,00' }] });
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(PurchaseValidationError);
    expect(refused instanceof PurchaseValidationError ? refused.errors.map((e) => [e.path, e.code]) : []).toEqual([
      ['purchaseEntries[0].mobile', 'MOBILE'],
      ['purchaseEntries[0].qq', 'INTEGER'],
    ]);
  });

  it('treats a required value of only white space as missing', () => {
    expect(() => validatePurchase(TEMPLATE, { units: 1, purchaseEntries: [{ mobile: ' \u3000 ' }] })).toThrow(/mobile: required/);
  });
});

describe('placeOrder stores the cleaned entries in the intent', () => {
  let temp: TempDatabase;
  beforeEach(() => {
    temp = createMigratedDatabase();
    insertProduct(temp.db, { productRef: 7001, catalogRef: 1, name: '话费充值', productType: 'topup', variants: [{ variantRef: 0, title: '100元', priceFen: 9_900 }] });
    storeTemplate(temp.db, TEMPLATE, 1_790_000_000);
  });
  afterEach(() => temp.dispose());

  it('records 13800138000 for a number pasted as " 138 0013 8000 " and full-width digits', () => {
    const intents = createOrderIntents({ db: temp.db, clock: createScaledClock(1), logger: new RedactingLogger({ sink: () => undefined, level: 'error' }) });
    const intent = intents.placeOrder({ productRef: 7001, units: 2, purchaseEntries: [{ mobile: ' 138 0013 8000 ' }, { mobile: '１３９００１３９０００' }] });
    expect(getIntent(temp.db, intent.clientOrderRef)?.purchaseEntries).toEqual([{ mobile: '13800138000' }, { mobile: '13900139000' }]);
    const stored = temp.db.prepare<[string], { json: string }>('SELECT purchase_entries_json AS json FROM order_intents WHERE client_order_ref = ?').get(intent.clientOrderRef);
    expect(JSON.parse(stored?.json ?? 'null')).toEqual({ groups: [{ mobile: '13800138000' }, { mobile: '13900139000' }], optionLabels: [{}, {}] });
  });
});
