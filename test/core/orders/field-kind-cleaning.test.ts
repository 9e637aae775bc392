// Core cleans every value by its field's kind before it checks and stores it, whatever brought the
// value in (the CLI's `--entry`, a batch row, the form): the sandbox's QQ field and game account
// typed `987 654 321` or `１２３４５６７８` are stored (and so sent) as the plain digits, a role
// name keeps its inner space, and a refused QQ number names the expected format in core's English.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBatchTable } from '../../../src/core/batch/batch-file-read';
import { guessMapping } from '../../../src/core/batch/batch-mapping';
import { previewBatch } from '../../../src/core/batch/batch-preview';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { PurchaseValidationError } from '../../../src/core/orders/order-errors';
import { getIntent } from '../../../src/core/orders/order-intent-store';
import { createOrderIntents } from '../../../src/core/orders/order-intents';
import { validatePurchase } from '../../../src/core/orders/purchase-validation';
import { storeTemplate } from '../../../src/core/orders/template-cache';
import { createScaledClock } from '../../../src/core/platform/clock';
import type { PurchaseField, PurchaseTemplate } from '../../../src/shared/merchant/template';
import { utf8 } from '../batch/batch-fixtures';
import { insertProduct } from '../db/catalog-fixtures';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const base = { required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true };
// As the sandbox's catalog writes them (src/sandbox/catalog/catalog-vocabulary.ts).
const QQ: PurchaseField = { ...base, fieldRef: 'qq', label: 'QQ号码', type: 'text', pattern: '^[1-9]\\d{4,11}$', minLength: 5, maxLength: 12, placeholder: '请输入QQ号' };
const ACCOUNT: PurchaseField = { ...base, fieldRef: 'account', label: '游戏账号', type: 'text', minLength: 5, maxLength: 30, placeholder: 'QQ号或微信号' };
const ROLE: PurchaseField = { ...base, fieldRef: 'roleName', label: '角色名', type: 'text', required: false, maxLength: 20, sensitive: false };

const template = (productRef: number, entryMode: string, fields: PurchaseField[]): PurchaseTemplate => ({
  productRef,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 2,
  entryMode,
  purchaseFields: fields,
  unitRule: { min: 1, max: 5, step: 1 },
});
const QQ_TOPUP = template(8101, 'single', [QQ]);
const GAME_TOPUP = template(8102, 'perUnit', [ACCOUNT, ROLE]);

function refusal(run: () => unknown): PurchaseValidationError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof PurchaseValidationError) return error;
    throw error;
  }
}

describe('validatePurchase: every value cleaned by its field kind', () => {
  it('QQ and game account typed with spaces and full-width digits become the plain id; a role name keeps its inner space', () => {
    expect(validatePurchase(QQ_TOPUP, { units: 1, purchaseEntries: [{ qq: ' 987 654 321 ' }] })).toEqual([{ qq: '987654321' }]);
    expect(validatePurchase(QQ_TOPUP, { units: 1, purchaseEntries: [{ qq: '９８７\u200b６５４\u3000３２１' }] })).toEqual([{ qq: '987654321' }]);
    expect(validatePurchase(GAME_TOPUP, { units: 2, purchaseEntries: [{ account: '987 654 321', roleName: ' 小明 二号 ' }, { account: '１２３４５６７８' }] })).toEqual([
      { account: '987654321', roleName: '小明 二号' },
      { account: '12345678' },
    ]);
  });

  it('refuses a QQ number outside the pattern naming the expected format (20 digits too)', () => {
    for (const wrong of ['0123456', '12345678901234567890', '1234']) {
      const error = refusal(() => validatePurchase(QQ_TOPUP, { units: 1, purchaseEntries: [{ qq: wrong }] }));
      expect(error?.errors[0]).toEqual({ path: 'purchaseEntries[0].qq', code: 'PATTERN', message: 'QQ号码: expected 5–12 digits, not starting with 0' });
    }
  });
});

describe('what core stores is the cleaned value', () => {
  let temp: TempDatabase;
  beforeEach(() => {
    temp = createMigratedDatabase();
    for (const t of [QQ_TOPUP, GAME_TOPUP]) {
      insertProduct(temp.db, { productRef: t.productRef, catalogRef: 1, name: `充值 ${t.productRef}`, productType: 'topup', variants: [{ variantRef: 0, title: '10元', priceFen: 1_000 }] });
      storeTemplate(temp.db, t, 1_790_000_000);
    }
  });
  afterEach(() => temp.dispose());

  it('an order placed from the CLI (placeOrder, as `order create --entry account=…`) stores 987654321 and 12345678', () => {
    const intents = createOrderIntents({ db: temp.db, clock: createScaledClock(1), logger: new RedactingLogger({ sink: () => undefined, level: 'error' }) });
    const intent = intents.placeOrder({ productRef: 8102, units: 2, purchaseEntries: [{ account: '987 654 321' }, { account: '１２３４５６７８', roleName: '小明' }] });
    const stored = temp.db.prepare<[string], { json: string }>('SELECT purchase_entries_json AS json FROM order_intents WHERE client_order_ref = ?').get(intent.clientOrderRef);
    expect(JSON.parse(stored?.json ?? 'null')).toMatchObject({ groups: [{ account: '987654321' }, { account: '12345678', roleName: '小明' }] });
    expect(getIntent(temp.db, intent.clientOrderRef)?.purchaseEntries).toEqual([{ account: '987654321' }, { account: '12345678', roleName: '小明' }]);
  });

  it('a refused QQ number writes nothing', () => {
    const intents = createOrderIntents({ db: temp.db, clock: createScaledClock(1), logger: new RedactingLogger({ sink: () => undefined, level: 'error' }) });
    expect(refusal(() => intents.placeOrder({ productRef: 8101, units: 1, purchaseEntries: [{ qq: '0123 456' }] }))?.message).toMatch(/5–12 digits, not starting with 0/);
    expect(temp.db.prepare('SELECT COUNT(*) AS n FROM order_intents').get()).toEqual({ n: 0 });
  });

  it('a batch row is cleaned before it is stored: the preview holds what will be sent', async () => {
    const table = await readBatchTable(utf8('游戏账号,角色名,数量\n987 654 321,小明 二号,1\n１２３４５６７８,,1\n"12 34",,1\n'));
    const preview = previewBatch({ table, template: { ...GAME_TOPUP, entryMode: 'single' }, mapping: guessMapping(table.header, GAME_TOPUP), unitPriceFen: 1_000 });
    expect(preview.rows.map((row) => row.purchaseEntries)).toEqual([[{ account: '987654321', roleName: '小明 二号' }], [{ account: '12345678' }], null]);
    expect(preview.rows[2]?.errors.map((e) => e.code)).toEqual(['TOO_SHORT']);
  });
});
