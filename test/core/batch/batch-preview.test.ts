// The preview's rules (contract §13.2–13.3): the mapping guessed from the header (fieldRef, label, a
// word the field type is known by), each row checked by the order form's own rules with values cleaned
// first (full-width digits, spaces, +86), totals over the rows that pass; a fast-check property over
// random row sets and mappings; and the 1,000-row preview bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBatchTable, type BatchTable } from '../../../src/core/batch/batch-file-read';
import { guessMapping } from '../../../src/core/batch/batch-mapping';
import { previewBatch } from '../../../src/core/batch/batch-preview';
import { validatePurchase } from '../../../src/core/orders/purchase-validation';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import type { PurchaseTemplate } from '../../../src/shared/merchant/template';
import { normaliseMobile } from '../../../src/shared/purchase-entry-normalise';
import { utf8 } from './batch-fixtures';

const TEMPLATE: PurchaseTemplate = {
  productRef: 7,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 3,
  entryMode: 'single',
  purchaseFields: [
    { fieldRef: 'phone', label: '充值手机号', type: 'mobile', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true },
    { fieldRef: 'note', label: 'Note', type: 'text', required: false, pattern: null, minLength: null, maxLength: 10, options: null, placeholder: null, sensitive: false },
  ],
  unitRule: { min: 10, max: 500, step: 10 },
};

const table = (header: string[], rows: string[][]): BatchTable => ({ format: 'csv', encoding: 'utf-8', header, rows: rows.map((cells, i) => ({ rowNumber: i + 2, cells })) });

describe('batch preview', () => {
  it('guesses the mapping from header names and words', () => {
    expect(guessMapping(['手机号', '金额（数量）', 'note'], TEMPLATE)).toEqual({ phone: '手机号', [UNITS_TARGET]: '金额（数量）', note: 'note' });
    expect(guessMapping(['PHONE', 'Qty'], TEMPLATE)).toEqual({ phone: 'PHONE', [UNITS_TARGET]: 'Qty' });
    expect(guessMapping(['充值手机号'], TEMPLATE)).toEqual({ phone: '充值手机号' });
    expect(guessMapping(['x', 'y'], TEMPLATE)).toEqual({});
  });

  it('checks every row by the form rules after cleaning, and totals the rows that pass', async () => {
    const text = '手机号,数量,note\n１３８ ００１３ ８０００,２０,a\n+86 139-0013-9000,10,\n12345,10,b\n13700137000,15,c\n13600136000,,d\n,10,e\n13500135000,10,far too long note\n';
    const t = await readBatchTable(utf8(text));
    const preview = previewBatch({ table: t, template: TEMPLATE, mapping: guessMapping(t.header, TEMPLATE), unitPriceFen: 95 });
    expect(preview.rows.map((row) => [row.rowNumber, row.errors.map((e) => `${e.path}:${e.code}`)])).toEqual([
      [2, []],
      [3, []],
      [4, ['phone:MOBILE']],
      [5, ['units:UNITS_STEP']],
      [6, ['units:UNITS_EMPTY']],
      [7, ['phone:REQUIRED']],
      [8, ['note:TOO_LONG']],
    ]);
    expect(preview.rows[0]).toMatchObject({ units: 20, amountFen: 1900, purchaseEntries: [{ phone: '13800138000', note: 'a' }] });
    expect(preview.rows[1]).toMatchObject({ units: 10, purchaseEntries: [{ phone: '13900139000' }] });
    expect(preview.totals).toEqual({ rows: 7, ok: 2, withErrors: 5, units: 30, totalFen: 2850 });
  });

  it('agrees with the order form rules on any row set and mapping (property)', () => {
    const phone = fc.oneof(fc.constantFrom('13800138000', '１３９００１３９０００', '+86 137 0013 7000', '', '12', 'abc', ' 13600136000 '));
    const units = fc.oneof(fc.constantFrom('10', '20', '15', '0', '', 'x', '５０', '510'));
    fc.assert(
      fc.property(fc.array(fc.tuple(phone, units), { minLength: 1, maxLength: 40 }), fc.boolean(), fc.integer({ min: 1, max: 10_000 }), (rows, mapUnits, price) => {
        const t = table(['tel', 'qty'], rows.map(([p, u]) => [p, u]));
        const mapping: Record<string, string> = mapUnits ? { phone: 'tel', [UNITS_TARGET]: 'qty' } : { phone: 'tel' };
        const preview = previewBatch({ table: t, template: TEMPLATE, mapping, unitPriceFen: price });
        expect(preview.totals.ok + preview.totals.withErrors).toBe(rows.length);
        let total = 0;
        preview.rows.forEach((row, i) => {
          const [p] = rows[i] ?? ['', ''];
          if (row.errors.length === 0) {
            // What passes is what the form's own check accepts, cleaned the same way.
            expect(validatePurchase(TEMPLATE, { units: row.units ?? 0, purchaseEntries: [{ phone: p }] })).toEqual(row.purchaseEntries);
            expect(row.purchaseEntries).toEqual([{ phone: normaliseMobile(p.trim()) }]);
            total += (row.units ?? 0) * price;
          } else {
            expect(row.purchaseEntries).toBeNull();
          }
        });
        expect(preview.totals.totalFen).toBe(total);
      }),
      { numRuns: 200 },
    );
  });

  it('previews 1,000 rows of a file within a second', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `1${String(3800000000 + i)},${(i % 5) * 10 + 10},"note ${i}"`);
    const bytes = utf8(`手机号,数量,note\r\n${lines.join('\r\n')}\r\n`);
    const started = performance.now();
    const t = await readBatchTable(bytes);
    const preview = previewBatch({ table: t, template: TEMPLATE, mapping: guessMapping(t.header, TEMPLATE), unitPriceFen: 95 });
    const elapsed = performance.now() - started;
    expect(preview.totals.ok).toBe(1000);
    expect(elapsed).toBeLessThan(1000);
  });
});
