// Every file the app exports, in the buyer's language (contract §16.4), through the app service against
// the sandbox: a batch's results (CSV, XLSX; placed, refused, never placed rows), the cards (CSV), every
// spend chart (CSV, XLSX) and the reconciliation report (CSV, XLSX; each kind of difference). In zh-CN no
// English word is left in headers or values outside the allow-list (english-words.ts, the screens' rule)
// and the merchant's or buyer's own data; in English no Chinese. A row's error reads as the batch
// dialog words it, and a results file fed back as a batch maps and checks as its source did.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishWords } from '../../../src/renderer/src/i18n/english-words';
import { translate } from '../../../src/renderer/src/i18n/translate';
import { UNITS_TARGET } from '../../../src/shared/batch-file';
import { SPEND_CHARTS } from '../../../src/shared/ipc/views/books';
import { fen, isOpen, isTopup, hasStock, must, validValue, valueFits, yuanText, type PurchaseField } from '../../support/orders-harness';
import { parseCsv, readXlsx } from '../export/file-readers';
import { placeCard, placeCompletedCard, secondClient, tamper, today } from '../books/reconcile-kit';
import { base64 } from '../batch/batch-fixtures';
import { openConnectedApp, waitFor, type ConnectedApp } from './app-kit';

type Language = 'zh-CN' | 'en';
interface ExportedFile {
  readonly name: string;
  readonly rows: string[][];
  /** Columns that are the buyer's own (a batch file's columns, written as given). */
  readonly ownColumns: number;
}

/** Not ours to translate, beyond english-words.ts: the merchant's currency code (ISO 4217, as the merchant states it). */
const FILE_ALLOWED = new Set(['cny']);
const CHINESE = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

let app: ConnectedApp;
const files = new Map<Language, ExportedFile[]>();
/** The merchant's data (names, refs, codes): kept as the merchant wrote them. */
const merchantData = new Set<string>();
const fieldLabels = new Set<string>();
let batchWords: { field: string; rows: Map<number, string[]> };
let batch: Awaited<ReturnType<typeof exportBatch>>;

const csvRows = (bytes: Uint8Array): string[][] => parseCsv(Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, '')).filter((row) => row.some((cell) => cell !== ''));
const xlsxRows = (bytes: Uint8Array): string[][] => {
  const book = readXlsx(bytes);
  return [[book.sheetName], ...book.rows.map((row) => row.map((cell) => cell?.text ?? ''))];
};
const rowsOf = (name: string, bytes: Uint8Array): string[][] => (name.endsWith('.xlsx') ? xlsxRows(bytes) : csvRows(bytes));

/** The cells to read: not the buyer's own columns, not the merchant's data (a code cell's one TAB dropped). */
function ours(file: ExportedFile): { where: string; text: string }[] {
  return file.rows.flatMap((row, r) =>
    row.flatMap((cell, c) => {
      // A CSV code cell (one TAB after it, contract §16.1) holds a code or ref: the merchant's card codes, order numbers.
      if (c < file.ownColumns || cell === '' || cell.endsWith('\t') || merchantData.has(cell)) return [];
      // A field's label is the merchant's, named inside our words ("充值手机号为空").
      const words = [...fieldLabels].reduce((rest, label) => rest.split(label).join(' '), cell);
      return [{ where: `${file.name} row ${r + 1} column ${c + 1}`, text: words }];
    }),
  );
}

function collectMerchantData(): void {
  const db = app.kit.core.db;
  const texts = db
    .prepare<[], { t: string | null }>(
      `SELECT name AS t FROM products UNION SELECT brand_name FROM products UNION SELECT title FROM variants UNION SELECT name FROM categories
       UNION SELECT client_order_ref FROM order_intents UNION SELECT platform_order_ref FROM orders UNION SELECT client_order_ref FROM orders`,
    )
    .all();
  for (const { t } of texts) if (t !== null) merchantData.add(t);
}

async function exportBatch(): Promise<{ fileName: string; dataBase64: string; batchId: string; ownColumns: number; productRef: number; variantRef: number }> {
  const { kit, catalog, merchant, account } = app;
  const pick = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && hasStock(v) && v.supply === 'succeed' && v.entryMode === 'single', 'single-entry top-up');
  const { productRef } = pick.product;
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const price = fen(pick.variant.price);
  const template = await kit.ok('orders.template', { productRef, variantRef });
  const fields = template.purchaseFields as PurchaseField[];
  const required = must(fields.find((f) => f.required && f.type !== 'select'), 'a typed required field');
  const { min, max, step } = template.unitRule;
  const good = fields.map((f) => validValue(f));
  // A second valid row that is not a duplicate of the first where a field allows it.
  const other = fields.map((f, i) => ['13912345678', 'user002', '10002', '12345679'].find((v) => valueFits(f, v) && v !== good[i]) ?? must(good[i], 'value'));
  const header = [...fields.map((f) => f.label || f.fieldRef), '数量'];
  const rows = [
    [...good, String(min)],
    [...other, String(min)],
    [...fields.map((f, i) => (f === required ? '' : (good[i] ?? ''))), String(min)],
    [...good, '两张'],
    [...good, ''],
    [...good, String(max + step)],
  ];
  const csv = [header, ...rows].map((row) => row.map((cell) => `"${cell}"`).join(',')).join('\r\n') + '\r\n';
  const file = { fileName: '充值.csv', dataBase64: base64(new TextEncoder().encode(csv)) };
  const input = { file, productRef, variantRef, mapping: null };
  const preview = await kit.ok('batch.preview', input);
  expect(preview.totals.ok).toBe(2);
  // Money for one row only: the merchant refuses the other (422103).
  await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: yuanText(price * min + 1) });
  const duplicates = { keepRows: preview.duplicates.rows.map((row) => row.rowNumber), skipRows: [], acceptedBatches: [] };
  const placed = await kit.ok('batch.place', { ...input, mapping: preview.mapping, unitPriceFen: price, confirmedTotalFen: preview.totals.totalFen, confirmedRows: 2, draftRef: `bd_lang_${Date.now().toString(36)}`, duplicates });
  const status = await waitFor('one accepted, one refused', async () => {
    const s = await kit.ok('batch.status', { batchId: placed.batchId });
    return s.counts.accepted === 1 && s.counts.failed === 1 ? s : null;
  }, 60_000);
  await merchant.control('POST', `/control/accounts/${account.userId}`, { balance: '100000' });
  const accepted = must(status.rows.find((row) => row.phase === 'accepted'), 'accepted row');
  await merchant.advance(accepted.clientOrderRef, 'processing');
  await kit.ok('orders.refresh', { clientOrderRef: accepted.clientOrderRef });
  const field = required.label || required.fieldRef;
  for (const f of fields) fieldLabels.add(f.label || f.fieldRef);
  batchWords = { field, rows: new Map(preview.rows.map((row) => [row.rowNumber, row.errors.map((e) => e.code)])) };
  return { ...file, batchId: placed.batchId, ownColumns: header.length, productRef, variantRef };
}

beforeAll(async () => {
  app = await openConnectedApp(1);
  const { kit, merchant, catalog, account } = app;
  // Every kind of reconciliation difference, and cards in the vault.
  const cardsRef = await placeCompletedCard(kit, merchant, catalog, 2);
  const stateRef = await placeCompletedCard(kit, merchant, catalog, 1);
  const droppedRef = await placeCard(kit, catalog, 1);
  const foreign = await secondClient(merchant, account).placeForeign(catalog);
  merchantData.add(foreign.clientOrderRef);
  await tamper(merchant, stateRef, { state: 'failed' });
  kit.core.db.prepare('DELETE FROM cards WHERE client_order_ref = ? AND seq = 1').run(cardsRef);
  await merchant.control('POST', `/control/orders/${droppedRef}/drop`);
  batch = await exportBatch();
  await kit.ok('books.reconcile', { fromDay: today(), toDay: today() });
  collectMerchantData();

  kit.host.chooseExportPath = (name: string) => Promise.resolve(join(kit.dataDir, name));
  const written = (answer: { status: string; path?: string }): Uint8Array => {
    if (answer.status !== 'written' || answer.path === undefined) throw new Error('not written');
    return readFileSync(answer.path);
  };
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const query = { from: today(), to: today(), timeZone };
  for (const language of ['zh-CN', 'en'] as const) {
    const out: ExportedFile[] = [];
    for (const format of ['csv', 'xlsx'] as const) {
      const results = await kit.ok('batch.exportResults', { batchId: batch.batchId, file: { fileName: batch.fileName, dataBase64: batch.dataBase64 }, format, language });
      out.push({ name: `batch results ${format}`, rows: rowsOf(results.fileName, Buffer.from(results.dataBase64, 'base64')), ownColumns: batch.ownColumns });
      out.push({ name: `reconciliation ${format}`, rows: rowsOf(`r.${format}`, written(await kit.ok('books.exportReconcile', { format, language }))), ownColumns: 0 });
      for (const chart of SPEND_CHARTS) out.push({ name: `spend ${chart} ${format}`, rows: rowsOf(`s.${format}`, written(await kit.ok('books.exportSpend', { query, chart, format, language }))), ownColumns: 0 });
    }
    const cards = await kit.ok('vault.export', { selection: { kind: 'order', clientOrderRef: cardsRef }, format: 'csv', acceptPlainText: true, language });
    out.push({ name: 'cards csv', rows: rowsOf('c.csv', written(cards)), ownColumns: 0 });
    files.set(language, out);
  }
}, 300_000);

afterAll(async () => {
  await app?.kit.close();
  await app?.merchant.stop();
});

describe('exported files in the buyer’s language', () => {
  it('in zh-CN: no English word in any header or value of any file (outside the allow-list and the merchant’s data)', () => {
    const all = must(files.get('zh-CN'), 'zh-CN files');
    expect(all).toHaveLength(2 * (2 + SPEND_CHARTS.length) + 1);
    for (const file of all) expect(file.rows.length, `${file.name} has rows`).toBeGreaterThan(1);
    const english = all.flatMap((file) => ours(file).flatMap(({ where, text }) => englishWords(text).filter((word) => !FILE_ALLOWED.has(word.toLowerCase())).map((word) => `${where}: "${word}" in "${text}"`)));
    expect(english).toEqual([]);
  });

  it('in English: no Chinese in any header or value of any file (outside the merchant’s data)', () => {
    const all = must(files.get('en'), 'English files');
    const chinese = all.flatMap((file) => ours(file).filter(({ text }) => CHINESE.test(text)).map(({ where, text }) => `${where}: "${text}"`));
    expect(chinese).toEqual([]);
  });

  it('words a batch row as the batch dialog does, with the status the screens show', () => {
    for (const language of ['zh-CN', 'en'] as const) {
      const file = must(must(files.get(language), language).find((f) => f.name === 'batch results csv'), 'results');
      const [header, ...rows] = file.rows;
      const added = must(header, 'header').slice(file.ownColumns);
      expect(added).toEqual(language === 'zh-CN' ? ['状态', '订单参考号', '商户订单号', '错误'] : ['Status', 'Order ref', 'Merchant order no.', 'Error']);
      const result = (rowNumber: number): string[] => must(rows[rowNumber - 2], `row ${rowNumber}`).slice(file.ownColumns);
      const error = (code: string): string => translate(language, `batch.error.${code}` as Parameters<typeof translate>[1], { field: batchWords.field });
      expect(batchWords.rows.get(4)).toEqual(['REQUIRED']);
      expect(result(4)).toEqual([language === 'zh-CN' ? '有错误，未下单' : 'Not placed: errors', '', '', error('REQUIRED')]);
      expect(result(5)[3]).toBe(error('UNITS_NOT_WHOLE'));
      expect(result(6)[3]).toBe(error('UNITS_EMPTY'));
      expect(result(7)[3]).toBe(error('UNITS_OUT_OF_RANGE'));
      const placed = [result(2), result(3)];
      expect(placed.map((r) => r[0]).sort()).toEqual([translate(language, 'intent.rejected'), translate(language, 'orderState.processing')].sort());
      const refused = must(placed.find((r) => r[0] === translate(language, 'intent.rejected')), 'refused row');
      expect(refused[3]).toBe(language === 'zh-CN' ? `${translate(language, 'problem.balance.title')}（商户错误码 422103）` : `${translate(language, 'problem.balance.title')} (merchant code 422103)`);
    }
  });

  it('says the reconciliation’s states in words, never the interface’s', () => {
    const file = must(must(files.get('zh-CN'), 'zh').find((f) => f.name === 'reconciliation csv'), 'report');
    const cells = file.rows.flat();
    expect(cells).toContain('已受理');
    expect(cells.some((cell) => cell.startsWith('失败 ×'))).toBe(true);
    expect(cells).toContain('状态');
    for (const raw of ['accepted', 'completed', 'failed', 'pending']) expect(cells.some((cell) => cell.includes(raw)), raw).toBe(false);
  });
});

describe('a results file fed back as a batch', () => {
  it('maps the same columns and checks the same rows as the file it came from', async () => {
    const { kit } = app;
    const source = { productRef: batch.productRef, variantRef: batch.variantRef, mapping: null };
    // Guessed from the headers alone, as for a first file (nothing remembered).
    const guess = async (file: { fileName: string; dataBase64: string }) => {
      kit.core.db.prepare('DELETE FROM batch_column_maps').run();
      return kit.ok('batch.preview', { ...source, file });
    };
    const original = await guess({ fileName: batch.fileName, dataBase64: batch.dataBase64 });
    expect(original.mappingSource).toBe('guessed');
    for (const language of ['zh-CN', 'en'] as const) {
      for (const format of ['csv', 'xlsx'] as const) {
        const results = await kit.ok('batch.exportResults', { batchId: batch.batchId, file: { fileName: batch.fileName, dataBase64: batch.dataBase64 }, format, language });
        const again = await guess(results);
        expect(again.mapping, `${language} ${format}`).toEqual(original.mapping);
        expect(again.rows.map((row) => row.errors.map((e) => e.code)), `${language} ${format}`).toEqual(original.rows.map((row) => row.errors.map((e) => e.code)));
        // A code cell's one TAB (contract §16.1) is in the cell read back; the field's cleaning drops it before any check.
        expect(again.rows.map((row) => Object.values(row.values).map((v) => v.replace(/\t$/, '')))).toEqual(original.rows.map((row) => Object.values(row.values)));
      }
    }
    expect(original.mapping[UNITS_TARGET]).toBe('数量');
  });
});
