// The vault-export channels through the app service (contract validation, handlers, events) with
// cards bought from a real sandbox over HTTPS and stored on disk: the masked, filtered, paged list;
// the preview; every refusal of an export request with its field (weak password, typings that
// differ, CSV without the risk accepted, empty selection, a host without a save dialog) and main
// refusing exactly what the shared password rule refuses; an XLSX export that msoffcrypto-tool
// opens to the very codes the vault reveals; cancel; marks; the audit log paged newest first with
// reveal, copy and export rows; vault.changed pushed; no password in any answer, event or log line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VaultCardRow } from '../../../src/shared/ipc/views/vault';
import { checkExportPassword } from '../../../src/shared/password-policy';
import { createAppService } from '../../../src/core/app/app-service';
import type { Catalog} from '../../support/orders-harness';
import { goodCard, must, fen } from '../../support/orders-harness';
import { MSOFFCRYPTO, readXlsx, run } from '../export/file-readers';
import { openConnectedApp, expectContractShapes, expectNoSecretLeft, expectRefused, waitFor, type AppKit, type Merchant } from './app-kit';

const SCALE = 50;
const PASSWORD = 'Lotus-风筝-8842';
let merchant: Merchant;
let kit: AppKit;
let catalog: Catalog;
let exportDir: string;
/** What the host's save dialog answers next: a file name in exportDir, or null (cancel). */
let nextAnswer: string | null = null;
const asked: string[] = [];
const refs: string[] = [];
/** Codes the vault revealed during the run (to look for them where they must not be). */
const revealedCodes: string[] = [];

async function buyCards(units: number): Promise<string> {
  const pick = catalog.claim((p, v) => goodCard(p, v), 'card that is supplied');
  const variantRef = pick.product.variants.length > 1 ? pick.variant.variantRef : 0;
  const placed = await kit.ok('orders.place', { productRef: pick.product.productRef, variantRef, units, unitPriceFen: fen(pick.variant.price) });
  const ref = placed.clientOrderRef;
  await waitFor('acceptance', async () => (await kit.ok('orders.get', { clientOrderRef: ref })).intentStatus === 'accepted' || null);
  await merchant.advance(ref, 'processing');
  await merchant.advance(ref, 'completed');
  await waitFor('the cards', async () => (await kit.ok('orders.get', { clientOrderRef: ref })).cards.length === units || null);
  return ref;
}

const changedEvents = () => kit.events.filter((e) => e.event === 'vault.changed').map((e) => (e.payload as { clientOrderRefs: string[] }).clientOrderRefs);

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'procure-app-export-'));
  ({ merchant, kit, catalog } = await openConnectedApp(SCALE, { autoAdvance: false }, (appKit) => {
    appKit.secrets.push(PASSWORD);
    appKit.host.chooseExportPath = (suggested) => {
      asked.push(suggested);
      return Promise.resolve(nextAnswer === null ? null : join(exportDir, nextAnswer));
    };
  }));
  refs.push(await buyCards(3), await buyCards(2));
}, 120_000);

afterAll(async () => {
  await kit?.close();
  await merchant?.stop();
  if (exportDir !== undefined) rmSync(exportDir, { recursive: true, force: true });
});

describe('vault.list and vault.exportPreview', () => {
  it('lists every card masked with product, variant, price and order time, filtered and paged', async () => {
    const all = await kit.ok('vault.list', { offset: 0, limit: 100 });
    expect(all.total).toBe(5);
    for (const row of all.rows) {
      expect(row.cardNoMasked).toMatch(/^•+\d{4}$/);
      expect(row.productName).not.toBeNull();
      expect(row.priceFen).toBeGreaterThan(0);
      expect(row.orderedAt).not.toBeNull();
      expect(row.exportedAt).toBeNull();
    }
    // Newest delivery first, an order's cards in their order.
    expect(all.rows.map((r) => `${r.clientOrderRef}#${r.seq}`)).toEqual([`${refs[1]}#0`, `${refs[1]}#1`, `${refs[0]}#0`, `${refs[0]}#1`, `${refs[0]}#2`]);
    const page = await kit.ok('vault.list', { offset: 1, limit: 2 });
    expect(page).toEqual({ total: 5, rows: all.rows.slice(1, 3) });
    const first = must(refs[0], 'order');
    expect((await kit.ok('vault.list', { offset: 0, limit: 100, selection: { kind: 'order', clientOrderRef: first } })).total).toBe(3);
    const name = must(all.rows.find((r) => r.clientOrderRef === first)?.productName, 'name');
    expect((await kit.ok('vault.list', { offset: 0, limit: 100, text: name.slice(0, 4) })).rows.some((r) => r.clientOrderRef === first)).toBe(true);
    expect((await kit.ok('vault.list', { offset: 0, limit: 100, text: 'no such thing 无' })).total).toBe(0);
    expectRefused(await kit.call('vault.list', { offset: 0, limit: 100, selection: { kind: 'dateRange', from: 200, to: 100 } }), 'INVALID_INPUT');
  });

  it('previews count, value, orders and already exported', async () => {
    const all = (await kit.ok('vault.list', { offset: 0, limit: 100 })).rows;
    const value = all.reduce((sum, r) => sum + (r.priceFen ?? 0), 0);
    expect(await kit.ok('vault.exportPreview', { selection: { kind: 'notExported' } })).toEqual({ count: 5, totalValueFen: value, orders: 2, alreadyExported: 0, refunded: 0 });
    expectRefused(await kit.call('vault.exportPreview', { selection: { kind: 'everything' } }), 'INVALID_INPUT');
  });
});

describe('vault.export refusals', () => {
  const selection = { kind: 'notExported' } as const;

  it('names the field and the rule, and never asks where to write', async () => {
    const weak = expectRefused(await kit.call('vault.export', { selection, format: 'xlsx', password: 'password1', passwordConfirm: 'password1' }), 'INVALID_INPUT');
    expect(weak.fields).toEqual([{ path: 'password', message: expect.stringContaining('at least 10 characters') as string }]);
    const mismatch = expectRefused(await kit.call('vault.export', { selection, format: 'zip', password: PASSWORD, passwordConfirm: `${PASSWORD} ` }), 'INVALID_INPUT');
    expect(mismatch.fields?.[0]?.path).toBe('passwordConfirm');
    expect(mismatch.message).toBe('the two passwords typed are not the same');
    const missing = expectRefused(await kit.call('vault.export', { selection, format: 'xlsx' }), 'INVALID_INPUT');
    expect(missing.fields?.[0]).toEqual({ path: 'password', message: 'a password is required for an encrypted export' });
    const csv = expectRefused(await kit.call('vault.export', { selection, format: 'csv' }), 'INVALID_INPUT');
    expect(csv.fields?.[0]?.path).toBe('acceptPlainText');
    expect(csv.message).toContain('anyone with the file can use them');
    const empty = expectRefused(await kit.call('vault.export', { selection: { kind: 'order', clientOrderRef: 'PD_none' }, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD }), 'INVALID_INPUT');
    expect(empty.fields?.[0]?.path).toBe('selection');
    expect(empty.message).toContain('no cards');
    expectRefused(await kit.call('vault.export', { selection, format: 'pdf' }), 'INVALID_INPUT');
    expect(asked).toEqual([]);
  });

  it('refuses in main exactly what the shared rule refuses (the screen and main cannot disagree)', async () => {
    const candidates = ['Abcdefgh12', 'qwertyuiop1!', 'P@ssw0rd!!2025', 'aaaaaaaaaA1', '卡密卡密导出文件很安全', 'Kx7-Tiger!92', 'tiger-lemon-42', 'short1!'];
    for (const password of candidates) {
      const verdict = checkExportPassword(password);
      nextAnswer = null;
      const result = await kit.call('vault.export', { selection, format: 'zip', password, passwordConfirm: password });
      if (verdict.ok) expect(result, password).toEqual({ ok: true, value: { status: 'cancelled' } });
      else expect(expectRefused(result, 'INVALID_INPUT').fields?.[0]?.path, password).toBe('password');
    }
  });

  it('explains a place that cannot be written, and writes, marks and audits nothing', async () => {
    const before = (await kit.ok('audit.list', { limit: 500 })).length;
    nextAnswer = 'no-such-folder/cards.xlsx';
    const refused = expectRefused(await kit.call('vault.export', { selection, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD }), 'INVALID_INPUT');
    expect(refused.message).toBe('the export could not be saved there (the folder does not exist); nothing was written: choose another place');
    expect(refused.fields).toEqual([{ path: 'path', message: 'the folder does not exist' }]);
    expect(await kit.ok('audit.list', { limit: 500 })).toHaveLength(before);
    expect((await kit.ok('vault.exportPreview', { selection })).alreadyExported).toBe(0);
    nextAnswer = null;
  });

  it('says so when the host has no way to save a file', async () => {
    const bare = createAppService(kit.core, { startDemoMerchant: () => Promise.reject(new Error('no demo')) });
    const refused = expectRefused(await bare.handle('vault.export', { selection, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD }), 'INTERNAL');
    expect(refused.message).toBe('this host cannot save files, so it cannot export');
  });
});

describe('vault.export', () => {
  it('cancelled in the save dialog: nothing written, marked, audited or pushed', async () => {
    const before = { events: changedEvents().length, audit: (await kit.ok('audit.list', { limit: 500 })).length };
    nextAnswer = null;
    expect(await kit.ok('vault.export', { selection: { kind: 'notExported' }, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD })).toEqual({ status: 'cancelled' });
    expect(asked.at(-1)).toMatch(/^procure-desk-cards-\d{8}-\d{6}-5\.xlsx$/);
    expect(changedEvents()).toHaveLength(before.events);
    expect(await kit.ok('audit.list', { limit: 500 })).toHaveLength(before.audit);
    expect((await kit.ok('vault.exportPreview', { selection: { kind: 'notExported' } })).alreadyExported).toBe(0);
  });

  it('writes an XLSX that msoffcrypto-tool opens to the codes the vault reveals, marks them and pushes vault.changed', async () => {
    const first = must(refs[0], 'order');
    nextAnswer = 'first-order';
    const result = await kit.ok('vault.export', { selection: { kind: 'order', clientOrderRef: first }, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD, language: 'en' });
    expect(result).toEqual({ status: 'written', path: join(exportDir, 'first-order.xlsx'), fileName: 'first-order.xlsx', count: 3, format: 'xlsx' });
    await waitFor('vault.changed', () => changedEvents().some((r) => r.includes(first)) || null);

    const out = join(exportDir, 'decrypted.xlsx');
    expect(run(MSOFFCRYPTO, ['-p', PASSWORD, result.status === 'written' ? result.path : '', out]).status).toBe(0);
    const book = readXlsx(readFileSync(out));
    rmSync(out);
    expect(book.rows[0]?.map((c) => c?.text)).toEqual(['Product', 'Variant', 'Order number', 'Card number', 'Card password', 'Expires', 'Ordered at', 'Price (CNY)', 'Refund', 'Internal ref']);
    const listed = (await kit.ok('vault.list', { offset: 0, limit: 100, selection: { kind: 'order', clientOrderRef: first } })).rows;
    for (const [i, row] of book.rows.slice(1).entries()) {
      const card = await kit.ok('vault.reveal', { clientOrderRef: first, seq: i });
      revealedCodes.push(card.cardNo, ...(card.cardPassword === null ? [] : [card.cardPassword]));
      const view = must(listed.find((r) => r.seq === i), 'listed card');
      expect(row[0]?.text).toBe(view.productName);
      // The merchant's order number; the internal ref only in the last (support) column.
      expect(row[2]?.text).toBe(must(view.platformOrderRef, 'merchant order number'));
      expect(row[8]?.text ?? '').toBe('');
      expect(row[9]?.text).toBe(first);
      expect(row[3]).toMatchObject({ text: card.cardNo, type: 's' });
      expect(row[4]?.text).toBe(card.cardPassword);
      expect(row[7]?.text).toBe(((view.priceFen ?? 0) / 100).toFixed(2));
    }
    const after = (await kit.ok('vault.list', { offset: 0, limit: 100 })).rows;
    expect(after.filter((r) => r.exportedAt !== null).map((r) => r.clientOrderRef)).toEqual([first, first, first]);
    expect((await kit.ok('vault.list', { offset: 0, limit: 100, exported: false })).total).toBe(2);
    expect(await kit.ok('vault.exportPreview', { selection: { kind: 'notExported' } })).toMatchObject({ count: 2, orders: 1 });
  });
});

describe('vault.mark and audit.list', () => {
  it('marks cards used or exported (and back), pushes vault.changed, ignores unknown cards', async () => {
    const second = must(refs[1], 'order');
    const before = changedEvents().length;
    expect(await kit.ok('vault.mark', { cards: [{ clientOrderRef: second, seq: 0 }], flag: 'used', value: true })).toEqual({ updated: 1 });
    expect(changedEvents().length).toBe(before + 1);
    const used = await kit.ok('vault.list', { offset: 0, limit: 100, used: true });
    expect(used.rows.map((r: VaultCardRow) => `${r.clientOrderRef}#${r.seq}`)).toEqual([`${second}#0`]);
    expect((await kit.ok('vault.list', { offset: 0, limit: 100, used: false })).total).toBe(4);
    expect(await kit.ok('vault.mark', { cards: [{ clientOrderRef: second, seq: 0 }], flag: 'used', value: false })).toEqual({ updated: 1 });
    expect((await kit.ok('vault.list', { offset: 0, limit: 100, used: true })).total).toBe(0);
    expect(await kit.ok('vault.mark', { cards: [{ clientOrderRef: second, seq: 1 }], flag: 'exported', value: true })).toEqual({ updated: 1 });
    expect((await kit.ok('vault.exportPreview', { selection: { kind: 'notExported' } })).count).toBe(1);
    expect(await kit.ok('vault.mark', { cards: [{ clientOrderRef: 'PD_none', seq: 0 }], flag: 'used', value: true })).toEqual({ updated: 0 });
    expect(changedEvents().length).toBe(before + 3);
    expectRefused(await kit.call('vault.mark', { cards: [], flag: 'used', value: true }), 'INVALID_INPUT');
  });

  it('pages the audit log newest first, by action, with reveal, copy and export rows and no secret', async () => {
    const first = must(refs[0], 'order');
    const rowsBefore = (await kit.ok('audit.list', { limit: 500 })).length;
    await kit.ok('vault.copy', { clientOrderRef: first, seq: 0, field: 'cardPassword' });
    const all = await kit.ok('audit.list', { limit: 500 });
    expect(all).toHaveLength(rowsBefore + 1);
    const number = must((await kit.ok('vault.list', { offset: 0, limit: 100 })).rows.find((r) => r.clientOrderRef === first)?.platformOrderRef, 'merchant order number');
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    // A copy is one `copy` row naming the field (no second `reveal` row); its facts name the card as the vault does (#1).
    expect(all[0]).toMatchObject({ action: 'copy', subject: `${number} #1`, cardCount: 1, detail: null, facts: { copied: 'cardPassword', subject: { kind: 'card', card: { order: { platformOrderRef: number }, seq: 0 } } } });
    const exports = await kit.ok('audit.list', { limit: 10, action: 'export' });
    expect(exports).toHaveLength(1);
    expect(exports[0]).toMatchObject({ action: 'export', subject: `order ${number}`, cardCount: 3, format: 'xlsx' });
    // Rows name orders and cards as the vault does, never by the internal ref.
    expect(JSON.stringify(all.map((e) => e.subject))).not.toContain(first);
    expect(exports[0]?.facts).toMatchObject({ subject: { kind: 'order', order: { platformOrderRef: number } }, exportFormat: 'xlsx', writtenTo: join(exportDir, 'first-order.xlsx') });
    expect((await kit.ok('audit.list', { limit: 10, action: 'reveal' })).length).toBeGreaterThanOrEqual(3);
    const [newest, next] = await kit.ok('audit.list', { limit: 2 });
    const older = await kit.ok('audit.list', { limit: 2, beforeId: must(next, 'second row').id });
    expect(older[0]?.id).toBeLessThan(must(next, 'second row').id);
    expect(newest?.id).toBe(all[0]?.id);
    // No card code or password in any audit row (the codes were revealed above, so we know them).
    const text = JSON.stringify(all);
    expect(revealedCodes.length).toBeGreaterThanOrEqual(3);
    for (const code of [...revealedCodes, ...kit.host.clipboard.map((c) => c.text), PASSWORD]) expect(text.includes(code)).toBe(false);
  });

  it('an export the host hands to the browser as a download is audited by the file’s name, never by the host’s staging folder', async () => {
    const second = must(refs[1], 'order');
    const staging = mkdtempSync(join(exportDir, 'download-'));
    kit.host.exportsAsDownloads = true;
    nextAnswer = join(staging.slice(exportDir.length + 1), 'second-order.xlsx');
    try {
      const result = await kit.ok('vault.export', { selection: { kind: 'order', clientOrderRef: second }, format: 'xlsx', password: PASSWORD, passwordConfirm: PASSWORD });
      expect(result).toMatchObject({ status: 'written', fileName: 'second-order.xlsx' });
      const [row] = await kit.ok('audit.list', { limit: 1, action: 'export' });
      expect(row?.facts).toMatchObject({ exportFormat: 'xlsx', downloadedAs: 'second-order.xlsx' });
      expect(row?.facts?.writtenTo).toBeUndefined();
      expect(JSON.stringify(row)).not.toContain(staging);
    } finally {
      kit.host.exportsAsDownloads = false;
    }
  });

  it('answered only contract-shaped results and events; the password is in no answer, event or log line', () => {
    expectContractShapes(kit);
    expectNoSecretLeft(kit, kit.secrets);
  });
});
