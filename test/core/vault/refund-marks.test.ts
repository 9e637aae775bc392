// Cards of orders the merchant took money back for, over a real vault (SQLite on disk, cards sealed
// by the delivery path) and the app service's channels: the mark in the list (refunded, cancelled,
// partly refunded, none), the refund filter, the preview's count, the export's refund and order
// number columns, and the acknowledgement core requires before a reveal, copy or export touches such
// a card (REFUND_ACK_REQUIRED, nothing revealed, copied, written or audited without it), recorded in
// the audit row, which names the card as the vault does (merchant number, #1) and never the internal ref.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../../src/core/app/app-service';
import type { IpcResult } from '../../../src/shared/ipc/ipc-result';
import { parseAuditFacts, type AuditFacts } from '../../../src/shared/ipc/views/audit';
import type { ExportPreview, VaultList } from '../../../src/shared/ipc/views/vault';
import { createVaultKit, type VaultKit } from '../export/export-kit';
import { parseCsv } from '../export/file-readers';

const T0 = 1_760_000_000;
const card = (n: number) => ({ card_no: `CARD${n}${randomBytes(4).toString('hex')}`, card_password: `PW${n}${randomBytes(4).toString('hex')}`, expiresAt: null });

let kit: VaultKit;
let app: AppService;
let dir: string;
const clipboard: string[] = [];
const asked: string[] = [];

async function call<T>(channel: string, input: unknown): Promise<IpcResult<T>> {
  return (await app.handle(channel, input)) as IpcResult<T>;
}
async function ok<T>(channel: string, input: unknown): Promise<T> {
  const result = await call<T>(channel, input);
  if (!result.ok) throw new Error(`${channel} refused: ${result.error.code} ${result.error.message}`);
  return result.value;
}
async function refusedCode(channel: string, input: unknown): Promise<string> {
  const result = await call<unknown>(channel, input);
  return result.ok ? 'answered' : result.error.code;
}
// The detail is facts (JSON, views/audit.ts): read back as the screen gets them.
const auditRows = () =>
  kit.core.db
    .prepare<[], { action: string; subject: string; card_count: number; detail: string | null }>('SELECT action, subject, card_count, detail FROM audit_log ORDER BY id')
    .all()
    .map((row) => ({ ...row, detail: parseAuditFacts(row.detail) }));
/** The facts of one card's row: the card as the vault names it (the order's number; seq 0 is #1). */
const cardFacts = (platformOrderRef: string, seq: number, more: Partial<AuditFacts> = {}): unknown => {
  const order: unknown = expect.objectContaining({ platformOrderRef });
  return { v: 1, subject: { kind: 'card', card: { order, seq } }, ...more };
};

beforeAll(async () => {
  kit = await createVaultKit();
  const base = { productRef: 301, variantRef: 0, variantTitle: '月卡', unitPriceFen: 1000 };
  await kit.deliver({ ...base, clientOrderRef: 'o_valid', productName: '有效商品', createdAt: T0, cards: [card(1)] });
  await kit.deliver({ ...base, clientOrderRef: 'o_refunded', productName: '退款商品', createdAt: T0 + 10, cards: [card(2), card(3)], state: 'refunded', refundedFen: 2000 });
  await kit.deliver({ ...base, clientOrderRef: 'o_partly', productName: '部分退款商品', createdAt: T0 + 20, cards: [card(4), card(5)], refundedFen: 1000 });
  await kit.deliver({ ...base, clientOrderRef: 'o_cancelled', productName: '取消商品', createdAt: T0 + 30, cards: [card(6)], state: 'cancelled', refundedFen: 1000 });
  dir = mkdtempSync(join(tmpdir(), 'procure-refund-marks-'));
  app = createAppService(kit.core, {
    startDemoMerchant: () => Promise.reject(new Error('no demo here')),
    writeClipboard: (text) => {
      clipboard.push(text);
      return Promise.resolve();
    },
    chooseExportPath: (suggested) => {
      asked.push(suggested);
      return Promise.resolve(join(dir, suggested));
    },
  });
});

afterAll(async () => {
  await kit?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('the vault list marks refunded and cancelled orders’ cards', () => {
  it('shows the mark and the merchant order number on every row', async () => {
    const list = await ok<VaultList>('vault.list', { offset: 0, limit: 100 });
    const marks = Object.fromEntries(list.rows.map((r) => [`${r.clientOrderRef}#${r.seq}`, r.refundMark]));
    expect(marks).toEqual({ 'o_valid#0': null, 'o_refunded#0': 'refunded', 'o_refunded#1': 'refunded', 'o_partly#0': 'partlyRefunded', 'o_partly#1': 'partlyRefunded', 'o_cancelled#0': 'cancelled' });
    for (const row of list.rows) expect(row.platformOrderRef).toBe(`PO${row.clientOrderRef}`);
  });

  it('filters valid cards, marked cards, or both', async () => {
    const valid = await ok<VaultList>('vault.list', { offset: 0, limit: 100, refund: 'valid' });
    expect(valid.rows.map((r) => r.clientOrderRef)).toEqual(['o_valid']);
    const refunded = await ok<VaultList>('vault.list', { offset: 0, limit: 100, refund: 'refunded' });
    expect(refunded.total).toBe(5);
    expect(new Set(refunded.rows.map((r) => r.clientOrderRef))).toEqual(new Set(['o_refunded', 'o_partly', 'o_cancelled']));
    expect((await ok<VaultList>('vault.list', { offset: 0, limit: 100 })).total).toBe(6);
    expect(await refusedCode('vault.list', { offset: 0, limit: 100, refund: 'maybe' })).toBe('INVALID_INPUT');
  });

  it('counts the marked cards of a selection in the export preview', async () => {
    expect(await ok<ExportPreview>('vault.exportPreview', { selection: { kind: 'notExported' } })).toMatchObject({ count: 6, refunded: 5 });
    expect(await ok<ExportPreview>('vault.exportPreview', { selection: { kind: 'order', clientOrderRef: 'o_valid' } })).toMatchObject({ count: 1, refunded: 0 });
    expect(await ok<ExportPreview>('vault.exportPreview', { selection: { kind: 'cards', cards: [{ clientOrderRef: 'o_valid', seq: 0 }, { clientOrderRef: 'o_partly', seq: 1 }] } })).toMatchObject({ count: 2, refunded: 1 });
  });
});

describe('reveal and copy ask first', () => {
  it('reveals a valid card without asking, named as the vault names it', async () => {
    await ok('vault.reveal', { clientOrderRef: 'o_valid', seq: 0 });
    expect(auditRows().at(-1)).toEqual({ action: 'reveal', subject: 'POo_valid #1', card_count: 1, detail: cardFacts('POo_valid', 0) });
  });

  it('refuses a refunded order’s card without the acknowledgement: nothing revealed, nothing audited', async () => {
    const before = auditRows().length;
    expect(await refusedCode('vault.reveal', { clientOrderRef: 'o_refunded', seq: 1 })).toBe('REFUND_ACK_REQUIRED');
    expect(await refusedCode('vault.reveal', { clientOrderRef: 'o_cancelled', seq: 0, acknowledgeRefunded: false })).toBe('REFUND_ACK_REQUIRED');
    const refused = await call('vault.reveal', { clientOrderRef: 'o_refunded', seq: 1 });
    expect(refused.ok ? '' : refused.error.message).toMatch(/refunded/);
    expect(auditRows()).toHaveLength(before);
  });

  it('reveals it with the acknowledgement, which the audit row records', async () => {
    const revealed = await ok<{ cardNo: string }>('vault.reveal', { clientOrderRef: 'o_refunded', seq: 1, acknowledgeRefunded: true });
    expect(revealed.cardNo).toBe(kit.orders[1]?.cards[1]?.card_no);
    expect(auditRows().at(-1)).toEqual({ action: 'reveal', subject: 'POo_refunded #2', card_count: 1, detail: cardFacts('POo_refunded', 1, { refundAcknowledged: { mark: 'refunded' } }) });
  });

  it('copies a partly refunded order’s card only with the acknowledgement, audited as one copy row', async () => {
    const before = auditRows().length;
    expect(await refusedCode('vault.copy', { clientOrderRef: 'o_partly', seq: 0, field: 'cardNo' })).toBe('REFUND_ACK_REQUIRED');
    expect(clipboard).toHaveLength(0);
    expect(auditRows()).toHaveLength(before);
    await ok('vault.copy', { clientOrderRef: 'o_partly', seq: 0, field: 'cardNo', acknowledgeRefunded: true });
    expect(clipboard).toEqual([kit.orders[2]?.cards[0]?.card_no]);
    expect(auditRows().slice(before)).toEqual([
      { action: 'copy', subject: 'POo_partly #1', card_count: 1, detail: cardFacts('POo_partly', 0, { copied: 'cardNo', refundAcknowledged: { mark: 'partlyRefunded' } }) },
    ]);
  });
});

describe('export asks first and says which cards were refunded', () => {
  const csvInput = { selection: { kind: 'notExported' }, format: 'csv', acceptPlainText: true, language: 'zh-CN' };

  it('refuses a selection holding marked cards without the acknowledgement: no dialog, no file, no mark, no audit', async () => {
    const before = auditRows().length;
    expect(await refusedCode('vault.export', csvInput)).toBe('REFUND_ACK_REQUIRED');
    expect(asked).toHaveLength(0);
    expect(auditRows()).toHaveLength(before);
    expect((await ok<ExportPreview>('vault.exportPreview', { selection: { kind: 'notExported' } })).alreadyExported).toBe(0);
  });

  it('exports a selection of valid cards without asking', async () => {
    const written = await ok<{ status: string; path: string }>('vault.export', { ...csvInput, selection: { kind: 'order', clientOrderRef: 'o_valid' } });
    expect(written.status).toBe('written');
    const rows = parseCsv(readFileSync(written.path, 'utf8').replace(/^\uFEFF/, ''));
    // The internal number is a code cell (contract §16.1: a trailing TAB keeps it text in a spreadsheet).
    expect(rows[1]?.slice(8)).toEqual(['', 'o_valid\t']);
  });

  it('with the acknowledgement: the refund column marks them, the order column is the merchant number, the audit row records it', async () => {
    const written = await ok<{ status: string; path: string; count: number }>('vault.export', { ...csvInput, acknowledgeRefunded: true });
    expect(written).toMatchObject({ status: 'written', count: 5 });
    const [headers, ...rows] = parseCsv(readFileSync(written.path, 'utf8').replace(/^\uFEFF/, ''));
    expect(headers).toEqual(['商品', '规格', '订单号', '卡号', '卡密', '有效期至', '下单时间', '单价（元）', '退款状态', '内部编号']);
    expect(rows.map((r) => [r[2], r[8], r[9]])).toEqual([
      ['POo_refunded\t', '已退款', 'o_refunded\t'],
      ['POo_refunded\t', '已退款', 'o_refunded\t'],
      ['POo_partly\t', '部分退款', 'o_partly\t'],
      ['POo_partly\t', '部分退款', 'o_partly\t'],
      ['POo_cancelled\t', '已取消', 'o_cancelled\t'],
    ]);
    const audit = auditRows().at(-1);
    expect(audit).toMatchObject({ action: 'export', subject: 'not yet exported', card_count: 5 });
    expect(audit?.detail).toMatchObject({ subject: { kind: 'notExported' }, exportFormat: 'csv', refundAcknowledged: { count: 5 } });
  });

  it('names picked cards in the audit log by merchant number and vault number, in English headers when asked', async () => {
    const written = await ok<{ path: string }>('vault.export', {
      selection: { kind: 'cards', cards: [{ clientOrderRef: 'o_cancelled', seq: 0 }, { clientOrderRef: 'o_valid', seq: 0 }] },
      format: 'csv',
      acceptPlainText: true,
      language: 'en',
      acknowledgeRefunded: true,
    });
    const [headers, ...rows] = parseCsv(readFileSync(written.path, 'utf8').replace(/^\uFEFF/, ''));
    expect(headers?.slice(8)).toEqual(['Refund', 'Internal ref']);
    expect(headers?.[2]).toBe('Order number');
    expect(rows.map((r) => r[8])).toEqual(['', 'Cancelled']);
    expect(auditRows().at(-1)?.subject).toBe('selected cards: POo_cancelled #1, POo_valid #1');
    expect(JSON.stringify(auditRows().map((r) => r.subject))).not.toMatch(/\bo_(valid|refunded|partly|cancelled)/);
  });
});
