// The export flow over a real vault (SQLite on disk, cards sealed by the delivery path) with canary
// card codes: each format opened by an independent reader and compared with what the merchant
// delivered, Chinese included; the CSV only after the risk is accepted; the audit row and the
// exported marks on exactly the cards written; a cancelled or failed export leaves nothing; and no
// canary or password in a log line, a temporary file, the database or an encrypted file.
import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardSelection, ExportInput } from '../../../src/shared/ipc/views/vault';
import { createCardExporter, type CardExporter } from '../../../src/core/export/card-exporter';
import { ExportInputError } from '../../../src/core/export/export-request';
import { createVaultMarks } from '../../../src/core/export/vault-marks';
import { hasTool, libreOfficeProfile, toolPath } from '../../support/external-tools';
import { createVaultKit, type DeliveredOrder, type VaultKit } from './export-kit';
import { containsText, MSOFFCRYPTO, parseCsv, readXlsx, run, SEVEN_ZIP, verifyOfficeIntegrity } from './file-readers';

const PASSWORD = `Tiger-${randomBytes(4).toString('hex')}-猫!`;
const T0 = 1_746_000_000;
/** A code that would be a formula in a spreadsheet: exact in the XLSX, guarded in the CSV. */
const FORMULA_CODE = `=cmd|' /C calc'!A${randomInt(1000)}`;

let kit: VaultKit;
let exporter: CardExporter;
/** The place the buyer picks: outside os.tmpdir(), so "nothing in the temporary folder" is checkable. */
let targetDir: string;
let startedAt: number;
const canaries: string[] = [];
/** Every file an export reported written. */
const finals = new Set<string>();

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join('');
function canaryCard(expiresAt: number | null, password?: string): { card_no: string; card_password: string; expiresAt: number | null } {
  const card = { card_no: `6${digits(18)}`, card_password: password ?? `CANARY${randomBytes(6).toString('hex').toUpperCase()}`, expiresAt };
  canaries.push(card.card_no, card.card_password);
  return card;
}

const ORDERS: (() => DeliveredOrder)[] = [
  () => ({ clientOrderRef: 'PD_exp_a', productRef: 101, variantRef: 1, productName: '腾讯视频 VIP 会员', variantTitle: '月卡', unitPriceFen: 1980, createdAt: T0, cards: [canaryCard(T0 + 365 * 86_400), canaryCard(T0 + 365 * 86_400), canaryCard(T0 + 365 * 86_400)] }),
  () => ({ clientOrderRef: 'PD_exp_b', productRef: 102, variantRef: 0, productName: '王者荣耀 点券', variantTitle: '60点券', unitPriceFen: 600, createdAt: T0 + 3600, cards: [canaryCard(null), canaryCard(null)] }),
  () => ({ clientOrderRef: 'PD_exp_c', productRef: 101, variantRef: 3, productName: '腾讯视频 VIP 会员', variantTitle: '季卡, "3个月"', unitPriceFen: 5500, createdAt: T0 + 3 * 86_400, cards: [canaryCard(T0 + 400 * 86_400), canaryCard(null, FORMULA_CODE)] }),
];

const two = (n: number): string => String(n).padStart(2, '0');
const localTime = (s: number): string => {
  const d = new Date(s * 1000);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

/** What the file must hold, from what was delivered (not from the code under test). */
function expectedRows(refs: readonly string[]): string[][] {
  return kit.orders
    .filter((o) => refs.includes(o.clientOrderRef))
    .sort((a, b) => a.createdAt - b.createdAt)
    .flatMap((o) =>
      o.cards.map((c) => [
        o.productName,
        o.variantTitle,
        `PO${o.clientOrderRef}`,
        c.card_no,
        c.card_password,
        c.expiresAt === null ? '' : localTime(c.expiresAt),
        localTime(o.createdAt),
        (o.unitPriceFen / 100).toFixed(2),
        '',
        o.clientOrderRef,
      ]),
    );
}

/** The CSV's code columns (order number, card number, password, internal ref) end with one TAB (contract §16.1), the formula-shaped one guarded. */
const CODE_COLUMNS = [2, 3, 4, 9];
const asCsv = (row: readonly string[]): string[] =>
  row.map((cell, i) => {
    const guarded = cell === FORMULA_CODE ? `'${cell}` : cell;
    return CODE_COLUMNS.includes(i) && cell !== '' ? `${guarded}\t` : guarded;
  });

const ZH = ['商品', '规格', '订单号', '卡号', '卡密', '有效期至', '下单时间', '单价（元）', '退款状态', '内部编号'];
const EN = ['Product', 'Variant', 'Order number', 'Card number', 'Card password', 'Expires', 'Ordered at', 'Price (CNY)', 'Refund', 'Internal ref'];

interface Chooser {
  (suggested: string): Promise<string | null>;
  suggested: string[];
}

function chooseIn(dir: string, name?: string | null): Chooser {
  const suggested: string[] = [];
  const choose = (s: string): Promise<string | null> => {
    suggested.push(s);
    if (name === null) return Promise.resolve(null);
    return Promise.resolve(join(dir, name ?? s));
  };
  return Object.assign(choose, { suggested });
}

const exportInput = (selection: CardSelection, format: ExportInput['format'], extra: Partial<ExportInput> = {}): ExportInput => ({
  selection,
  format,
  ...(format === 'csv' || format === 'txt' ? {} : { password: PASSWORD, passwordConfirm: PASSWORD }),
  ...extra,
});

async function exportTo(input: ExportInput, choose: Chooser) {
  const outcome = await exporter.export(input, choose);
  if (outcome.status === 'written') finals.add(outcome.path);
  return outcome;
}

const auditRows = () =>
  kit.core.db.prepare<[], { id: number; action: string; subject: string; card_count: number; format: string | null; detail: string | null }>('SELECT id, action, subject, card_count, format, detail FROM audit_log ORDER BY id').all();
const exportedAt = () =>
  Object.fromEntries(kit.core.db.prepare<[], { k: string; exported_at: number | null }>("SELECT client_order_ref || '#' || seq AS k, exported_at FROM cards ORDER BY k").all().map((r) => [r.k, r.exported_at]));
const clearExported = () => {
  const all = kit.core.db.prepare<[], { clientOrderRef: string; seq: number }>('SELECT client_order_ref AS clientOrderRef, seq FROM cards').all();
  createVaultMarks(kit.core.db).mark(all, 'exported', false, 0);
};

beforeAll(async () => {
  startedAt = Date.now();
  kit = await createVaultKit();
  for (const make of ORDERS) await kit.deliver(make());
  exporter = createCardExporter({ db: kit.core.db, vault: kit.core.vault, logger: kit.logger, now: () => Math.floor(Date.now() / 1000) });
  targetDir = join(process.cwd(), 'test-results', `export-target-${randomBytes(4).toString('hex')}`);
  mkdirSync(targetDir, { recursive: true });
});

afterAll(async () => {
  await kit?.close();
  if (targetDir !== undefined) rmSync(targetDir, { recursive: true, force: true });
});

describe('export preview', () => {
  it('counts, values and splits every kind of selection before anything is written', () => {
    expect(exporter.preview({ kind: 'notExported' })).toEqual({ count: 7, totalValueFen: 3 * 1980 + 2 * 600 + 2 * 5500, orders: 3, alreadyExported: 0, refunded: 0 });
    expect(exporter.preview({ kind: 'order', clientOrderRef: 'PD_exp_b' })).toEqual({ count: 2, totalValueFen: 1200, orders: 1, alreadyExported: 0, refunded: 0 });
    expect(exporter.preview({ kind: 'product', productRef: 101 })).toEqual({ count: 5, totalValueFen: 3 * 1980 + 2 * 5500, orders: 2, alreadyExported: 0, refunded: 0 });
    // Received a minute after each order: the first day holds A and B.
    expect(exporter.preview({ kind: 'dateRange', from: T0, to: T0 + 86_400 })).toMatchObject({ count: 5, orders: 2 });
    expect(exporter.preview({ kind: 'cards', cards: [{ clientOrderRef: 'PD_exp_a', seq: 2 }, { clientOrderRef: 'PD_exp_c', seq: 1 }, { clientOrderRef: 'PD_nope', seq: 0 }] })).toEqual({
      count: 2,
      totalValueFen: 1980 + 5500,
      orders: 2,
      alreadyExported: 0,
      refunded: 0,
    });
    expect(exporter.preview({ kind: 'order', clientOrderRef: 'PD_nope' })).toEqual({ count: 0, totalValueFen: 0, orders: 0, alreadyExported: 0, refunded: 0 });
  });
});

describe('password-protected XLSX', () => {
  let file: string;

  it('writes the selected cards, marks exactly those exported and audits the export', async () => {
    const before = auditRows().length;
    const choose = chooseIn(targetDir);
    const outcome = await exportTo(exportInput({ kind: 'cards', cards: [{ clientOrderRef: 'PD_exp_a', seq: 1 }, { clientOrderRef: 'PD_exp_c', seq: 1 }] }, 'xlsx'), choose);
    expect(outcome).toMatchObject({ status: 'written', count: 2, format: 'xlsx', clientOrderRefs: ['PD_exp_a', 'PD_exp_c'] });
    expect(choose.suggested[0]).toMatch(/^procure-desk-cards-\d{8}-\d{6}-2\.xlsx$/);
    const marks = exportedAt();
    expect(Object.entries(marks).filter(([, at]) => at !== null).map(([k]) => k)).toEqual(['PD_exp_a#1', 'PD_exp_c#1']);
    const rows = auditRows().slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'export', subject: 'selected cards: POPD_exp_a #2, POPD_exp_c #2', card_count: 2, format: 'xlsx' });
    expect(JSON.parse(rows[0]?.detail ?? 'null')).toMatchObject({
      v: 1,
      subject: { kind: 'cards', cards: [{ order: { platformOrderRef: 'POPD_exp_a' }, seq: 1 }, { order: { platformOrderRef: 'POPD_exp_c' }, seq: 1 }], more: 0 },
      exportFormat: 'xlsx',
    });
    clearExported();
  });

  it('decrypts with msoffcrypto-tool to a workbook that equals the vault exactly, Chinese included', async () => {
    const outcome = await exportTo(exportInput({ kind: 'notExported' }, 'xlsx'), chooseIn(targetDir, 'all-cards.xlsx'));
    if (outcome.status !== 'written') throw new Error('not written');
    file = outcome.path;
    expect(file).toBe(join(targetDir, 'all-cards.xlsx'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const out = join(targetDir, '..', `decrypted-${randomBytes(3).toString('hex')}.xlsx`);
    try {
      const result = run(MSOFFCRYPTO, ['-p', PASSWORD, file, out]);
      expect(result.status, result.stderr).toBe(0);
      const book = readXlsx(readFileSync(out));
      expect(book.sheetName).toBe('卡密');
      const texts = book.rows.map((row) => Array.from({ length: 10 }, (_, i) => row[i]?.text ?? ''));
      expect(texts[0]).toEqual(ZH);
      expect(texts.slice(1)).toEqual(expectedRows(['PD_exp_a', 'PD_exp_b', 'PD_exp_c']));
      // The formula-shaped code is a typed string here, exactly as delivered.
      expect(texts.flat()).toContain(FORMULA_CODE);
    } finally {
      rmSync(out, { force: true });
    }
    expect(Object.values(exportedAt()).every((at) => at !== null)).toBe(true);
    expect(exporter.preview({ kind: 'notExported' }).count).toBe(0);
  });

  // A spreadsheet application's view of the package: LibreOffice (installed by .ci/run; skipped only
  // where it is absent) must read the decrypted workbook to the same cells.
  it.skipIf(!hasTool('soffice'))('reads back the same in LibreOffice', () => {
    const work = join(targetDir, '..', `lo-${randomBytes(3).toString('hex')}`);
    mkdirSync(work);
    try {
      const plain = join(work, 'cards.xlsx');
      expect(run(MSOFFCRYPTO, ['-p', PASSWORD, file, plain]).status).toBe(0);
      const converted = run(toolPath('soffice'), ['--headless', libreOfficeProfile(work), '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76,1', '--outdir', work, plain]);
      expect(converted.status, converted.stderr).toBe(0);
      const rows = parseCsv(readFileSync(join(work, 'cards.csv'), 'utf8').replace(/\r?\n/g, '\r\n'));
      expect(rows.slice(1).map((r) => [r[2], r[3], r[4]])).toEqual(expectedRows(['PD_exp_a', 'PD_exp_b', 'PD_exp_c']).map((r) => [r[2], r[3], r[4]]));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('is encrypted, passes integrity, and opens with no other password', () => {
    expect(run(MSOFFCRYPTO, ['--test', file]).status).toBe(0);
    expect(verifyOfficeIntegrity(file, PASSWORD).status).toBe(0);
    const wrong = run(MSOFFCRYPTO, ['-p', `${PASSWORD}x`, file, join(targetDir, '..', 'wrong.xlsx')]);
    rmSync(join(targetDir, '..', 'wrong.xlsx'), { force: true });
    expect(wrong.status).not.toBe(0);
  });
});

describe('AES-256 ZIP of a CSV', () => {
  it('tests, lists as AES-256 and extracts a BOM-prefixed CSV equal to the vault, headers in English when asked', async () => {
    const outcome = await exportTo(exportInput({ kind: 'product', productRef: 101 }, 'zip', { language: 'en' }), chooseIn(targetDir));
    if (outcome.status !== 'written') throw new Error('not written');
    expect(outcome.fileName).toMatch(/\.zip$/);
    expect(run(SEVEN_ZIP, ['t', `-p${PASSWORD}`, outcome.path]).status).toBe(0);
    const listing = run(SEVEN_ZIP, ['l', '-slt', `-p${PASSWORD}`, outcome.path]).stdout.toString();
    expect(listing).toContain('Method = AES-256 Deflate');
    const entry = /Path = (procure-desk-cards-.*\.csv)/.exec(listing)?.[1] ?? '';
    expect(entry).not.toBe('');
    const extracted = run(SEVEN_ZIP, ['x', `-p${PASSWORD}`, '-so', outcome.path, entry]);
    expect(extracted.status).toBe(0);
    expect([...extracted.stdout.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(extracted.stdout.subarray(3).toString('utf8'));
    expect(records[0]).toEqual(EN);
    expect(records.slice(1)).toEqual(expectedRows(['PD_exp_a', 'PD_exp_c']).map(asCsv));
    expect(run(SEVEN_ZIP, ['t', `-p${PASSWORD}!`, outcome.path]).status).not.toBe(0);
  });
});

describe('plain CSV', () => {
  it('is refused without the explicit acceptance of the risk, and writes nothing', async () => {
    const before = auditRows().length;
    const choose = chooseIn(targetDir);
    const files = readdirSync(targetDir);
    await expect(exportTo(exportInput({ kind: 'order', clientOrderRef: 'PD_exp_b' }, 'csv'), choose)).rejects.toSatisfy(
      (e: unknown) => e instanceof ExportInputError && e.field === 'acceptPlainText' && /anyone with the file/.test(e.message),
    );
    await expect(exportTo(exportInput({ kind: 'order', clientOrderRef: 'PD_exp_b' }, 'csv', { acceptPlainText: false }), choose)).rejects.toBeInstanceOf(ExportInputError);
    expect(choose.suggested).toEqual([]);
    expect(readdirSync(targetDir)).toEqual(files);
    expect(auditRows()).toHaveLength(before);
  });

  it('with it, writes exactly the vault as RFC 4180 with BOM and the formula guard', async () => {
    const outcome = await exportTo(exportInput({ kind: 'dateRange', from: T0, to: T0 + 10 * 86_400 }, 'csv', { acceptPlainText: true }), chooseIn(targetDir, 'plain'));
    if (outcome.status !== 'written') throw new Error('not written');
    // The dialog's name lacked the extension: added.
    expect(outcome.fileName).toBe('plain.csv');
    const bytes = readFileSync(outcome.path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const expected = [ZH, ...expectedRows(['PD_exp_a', 'PD_exp_b', 'PD_exp_c']).map(asCsv)];
    expect(parseCsv(text)).toEqual(expected);
    expect(text).toContain('"季卡, ""3个月"""');
    expect(auditRows().at(-1)).toMatchObject({ action: 'export', format: 'csv', card_count: 7 });
    expect(JSON.parse(auditRows().at(-1)?.detail ?? 'null')).toMatchObject({ exportFormat: 'csv' });
  });
});

describe('what an export must not leave behind', () => {
  it('writes nothing, marks nothing and audits nothing when the buyer cancels the save dialog', async () => {
    clearExported();
    const before = { audit: auditRows().length, files: readdirSync(targetDir), marks: exportedAt() };
    const choose = chooseIn(targetDir, null);
    expect(await exportTo(exportInput({ kind: 'notExported' }, 'xlsx'), choose)).toEqual({ status: 'cancelled' });
    expect(choose.suggested).toHaveLength(1);
    expect(auditRows()).toHaveLength(before.audit);
    expect(readdirSync(targetDir)).toEqual(before.files);
    expect(exportedAt()).toEqual(before.marks);
  });

  it('leaves no partial file, no mark and no audit row when the write fails', async () => {
    const blocked = join(targetDir, 'blocked.zip');
    mkdirSync(blocked);
    const before = { audit: auditRows().length, files: readdirSync(targetDir).sort(), marks: exportedAt() };
    await expect(exportTo(exportInput({ kind: 'order', clientOrderRef: 'PD_exp_b' }, 'zip'), chooseIn(targetDir, 'blocked.zip'))).rejects.toThrow();
    expect(readdirSync(targetDir).sort()).toEqual(before.files);
    expect(readdirSync(blocked)).toEqual([]);
    expect(auditRows()).toHaveLength(before.audit);
    expect(exportedAt()).toEqual(before.marks);
    rmSync(blocked, { recursive: true });
  });

  it('refuses an empty selection with a clear reason before asking where to write', async () => {
    const choose = chooseIn(targetDir);
    await expect(exportTo(exportInput({ kind: 'order', clientOrderRef: 'PD_nope' }, 'xlsx'), choose)).rejects.toSatisfy(
      (e: unknown) => e instanceof ExportInputError && e.field === 'selection' && e.message.includes('no cards'),
    );
    expect(choose.suggested).toEqual([]);
  });

  it('puts no canary in a log line, a temporary file, the database or an encrypted file, and no password anywhere', () => {
    // Reveals audited by the vault as well, so the audit check below covers them too.
    kit.core.vault.revealCard('PD_exp_a', 0);
    const secrets = [...canaries, PASSWORD];
    const logs = kit.logLines.join('\n');
    expect(kit.logLines.some((l) => l.includes('cards exported'))).toBe(true);
    for (const s of secrets) expect(logs.includes(s), `log holds ${s.slice(0, 4)}…`).toBe(false);

    // The target folder holds the final files only: no .partial left over.
    const present = readdirSync(targetDir);
    expect(present.sort()).toEqual([...finals].map((p) => p.slice(targetDir.length + 1)).sort());
    for (const f of present) {
      const bytes = readFileSync(join(targetDir, f));
      if (f.endsWith('.csv')) continue; // the plain CSV the buyer accepted holds them by design
      for (const s of secrets) expect(containsText(bytes, s), `${f} holds ${s.slice(0, 4)}…`).toBe(false);
    }

    // Nothing written to the temporary folder during the run carries a canary or the password.
    const scan = (dir: string, depth: number): string[] => {
      const found: string[] = [];
      let entries: string[];
      try {
        entries = readdirSync(dir);
      } catch {
        return found;
      }
      for (const name of entries) {
        const path = join(dir, name);
        // The folder the buyer chose was checked above; it lies under the temporary folder when
        // the repository itself was cloned there (as CI may do).
        if (path === targetDir) continue;
        let st;
        try {
          st = statSync(path);
        } catch {
          continue;
        }
        if (st.mtimeMs < startedAt - 1000) continue;
        if (st.isDirectory() && depth < 4) found.push(...scan(path, depth + 1));
        else if (st.isFile() && st.size < 64 * 1024 * 1024) {
          const bytes = readFileSync(path);
          if (secrets.some((s) => containsText(bytes, s))) found.push(path);
        }
      }
      return found;
    };
    expect(scan(tmpdir(), 0)).toEqual([]);

    // The database and its WAL: sealed BLOBs only.
    const dbFiles = readdirSync(kit.dataDir).filter((f) => f.startsWith('procure-desk.sqlite'));
    expect(dbFiles.length).toBeGreaterThan(0);
    for (const f of dbFiles) {
      const bytes = readFileSync(join(kit.dataDir, f));
      for (const s of secrets) expect(containsText(bytes, s), `${f} holds ${s.slice(0, 4)}…`).toBe(false);
    }

    // Audit rows: references and counts, never a secret.
    const audit = JSON.stringify(auditRows());
    expect(audit).toContain('"action":"reveal"');
    for (const s of secrets) expect(audit.includes(s)).toBe(false);
  });

  it('writes its temporary file beside the target, never in os.tmpdir()', async () => {
    // A probe host that looks at the target folder while the file is being written.
    const seen: string[] = [];
    const watcher = setInterval(() => seen.push(...readdirSync(targetDir).filter((f) => f.endsWith('.partial'))), 1);
    try {
      await exportTo(exportInput({ kind: 'product', productRef: 102 }, 'xlsx'), chooseIn(targetDir, 'probe.xlsx'));
    } finally {
      clearInterval(watcher);
    }
    expect(readdirSync(targetDir).filter((f) => f.endsWith('.partial'))).toEqual([]);
    // On a slow disk the watcher catches the staged file; either way it can only ever be here.
    for (const name of seen) expect(name).toMatch(/^\.probe\.xlsx\.[0-9a-f]{12}\.partial$/);
  });
});
