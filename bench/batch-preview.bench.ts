// Benchmark: the preview of a 1,000-row batch file as the app and the CLI run it (contract §13): the
// bytes read (CSV in GB18030 through the UTF-8 → GB18030 fallback; XLSX unzipped and parsed), the
// mapping guessed from the header, every row checked by the order form's rules with values cleaned.
// Goal: ≤ 1 s. Five runs per format after one warm-up; median and worst shown.
import { readBatchTable } from '../src/core/batch/batch-file-read';
import { guessMapping } from '../src/core/batch/batch-mapping';
import { previewBatch } from '../src/core/batch/batch-preview';
import { xlsxBytes } from '../src/core/export/xlsx-writer';
import type { PurchaseTemplate } from '../src/shared/merchant/template';
import { quantile } from './bench-database';

const ROWS = 1_000;
const RUNS = 5;
const GOAL_MS = 1_000;

const TEMPLATE: PurchaseTemplate = {
  productRef: 1,
  variantRef: 0,
  productType: 'topup',
  purchaseSchemaRevision: 1,
  entryMode: 'single',
  purchaseFields: [
    { fieldRef: 'phone', label: '充值手机号', type: 'mobile', required: true, pattern: null, minLength: null, maxLength: null, options: null, placeholder: null, sensitive: true },
    { fieldRef: 'name', label: '姓名', type: 'text', required: false, pattern: null, minLength: null, maxLength: 20, options: null, placeholder: null, sensitive: false },
  ],
  unitRule: { min: 10, max: 500, step: 10 },
};

const HEADER = ['手机号', '数量', '姓名', '备注'];
const rows = (): string[][] => Array.from({ length: ROWS }, (_, i) => [`1${3800000000 + i}`, String(10 * ((i % 5) + 1)), `客户${i}`, i % 7 === 0 ? '加急, "当天"\n到账' : '']);

/** GB18030 bytes of the CSV, as Chinese Excel writes it (two-byte codes found through the platform's decoder). */
function gb18030Csv(): Uint8Array {
  const decoder = new TextDecoder('gb18030');
  const table = new Map<string, number[]>();
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x40; trail <= 0xfe; trail += 1) {
      if (trail === 0x7f) continue;
      const char = decoder.decode(Uint8Array.of(lead, trail));
      if (char.length === 1 && !table.has(char)) table.set(char, [lead, trail]);
    }
  }
  const quote = (cell: string): string => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const text = [HEADER, ...rows()].map((row) => row.map(quote).join(',')).join('\r\n');
  const out: number[] = [];
  for (const char of text) out.push(...(char.charCodeAt(0) < 0x80 ? [char.charCodeAt(0)] : (table.get(char) ?? [0x3f])));
  return Uint8Array.from(out);
}

async function timePreview(bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const table = await readBatchTable(bytes);
  const preview = previewBatch({ table, template: TEMPLATE, mapping: guessMapping(table.header, TEMPLATE), unitPriceFen: 95 });
  const elapsed = performance.now() - started;
  if (preview.totals.ok !== ROWS) throw new Error(`the bench file previewed ${preview.totals.ok} good rows, not ${ROWS}`);
  return elapsed;
}

export async function benchBatchPreview(): Promise<{ lines: string[]; medians: Record<string, number> }> {
  const files: [string, Uint8Array][] = [
    ['csv (GB18030)', gb18030Csv()],
    ['xlsx', await xlsxBytes({ sheetName: 'Sheet1', headers: HEADER, rows: rows() })],
  ];
  const lines: string[] = [];
  const medians: Record<string, number> = {};
  for (const [name, bytes] of files) {
    await timePreview(bytes);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) times.push(await timePreview(bytes));
    const median = quantile([...times].sort((a, b) => a - b), 0.5);
    medians[name] = median;
    const worst = Math.max(...times);
    lines.push(`batch preview ${ROWS} rows ${name} (${(bytes.byteLength / 1024).toFixed(0)} KiB): median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (goal ≤ ${GOAL_MS} ms) ${worst <= GOAL_MS ? 'OK' : 'OVER'}`);
  }
  return { lines, medians };
}
