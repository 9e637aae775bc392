// The web host's core runs in its own process (src/core/process). Here it is SIGKILLed while orders are
// being placed and sent and while an XLSX export of many cards runs — against the sandbox over HTTPS,
// with SQLite and the passphrase-protected secrets on disk. Calls answered CORE_RESTARTED are sent again
// with the same draftRef, as the renderer does. Then: every intent resolves, the sandbox's ledger shows
// each order charged exactly once and nothing else, the vault holds every card, the interrupted export
// either finished (a whole file, offered as the tab's download) or left nothing staged, and exporting
// again works. The export is asked through a browser session's socket, as the page asks it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import type { ChannelName, ChannelOutput } from '../../src/shared/ipc/contract';
import type { IpcResult } from '../../src/shared/ipc/ipc-result';
import type { ExportInput } from '../../src/shared/ipc/views/vault';
import type { PlaceOrderInput } from '../../src/shared/ipc/views/orders';
import { runWebHost, type RunningWebHost } from '../../src/web-host/run-web-host';
import { waitFor } from '../core/app/app-kit';
import { MSOFFCRYPTO, readXlsx, run } from '../core/export/file-readers';
import { purchasable, sandboxControl, type ControlProduct, type ControlVariant, type SandboxControl } from '../e2e/support/sandbox-control';
import { fen } from '../support/orders-harness';
import { fakeRendererDir, openClient, openSession, socketUrl, type WireClient } from './web-host-kit';

const SCALE = 50;
const PASSWORD = 'Crash-Test-Export-Pw-91';
const MERCHANT_WAIT_MS = 60_000;

let host: RunningWebHost;
let control: SandboxControl;
let userId = '';
let dataDir = '';
let products: ControlProduct[] = [];
const claimed = new Set<number>();
const logLines: string[] = [];

async function ok<C extends ChannelName>(channel: C, input?: unknown): Promise<ChannelOutput<C>> {
  const result = await host.core.handle(channel, input);
  if (!result.ok) throw new Error(`${channel} answered ${JSON.stringify(result.error)}`);
  return result.value as ChannelOutput<C>;
}

/** As the renderer does: a call the core's restart interrupted is sent again, unchanged. */
async function callRetryingRestarts(channel: ChannelName, input: unknown, restarts: { count: number }): Promise<IpcResult<unknown>> {
  for (;;) {
    const result = await host.core.handle(channel, input);
    if (result.ok || result.error.code !== 'CORE_RESTARTED') return result;
    restarts.count += 1;
  }
}

/** The most units up to `want` that the variant's rule allows. */
function unitsUpTo(variant: ControlVariant, want: number): number {
  const { min, max, step } = variant.unitRule;
  const top = Math.min(max, want);
  return top - ((top - min) % step);
}

let draftCounter = 0;
const newDraftRef = (): string => `rv_crash${String(draftCounter++).padStart(4, '0')}${Math.random().toString(36).slice(2, 12).padEnd(10, 'x')}`;

/** A card the merchant supplies, in stock, with no purchase fields to fill; one product per order. */
const goodCard = (p: ControlProduct, v: ControlVariant): boolean =>
  p.productType === 'card' && purchasable(p, v) && v.supply === 'succeed' && (v.inventoryType === 'unlimited' || (v.remainingUnits ?? 0) >= 50);

function orderInput(units: number): PlaceOrderInput {
  for (const product of products) {
    const variant = product.variants.find((v) => goodCard(product, v));
    if (claimed.has(product.productRef) || variant === undefined) continue;
    claimed.add(product.productRef);
    const variantRef = product.variants.length > 1 ? variant.variantRef : 0;
    return { productRef: product.productRef, variantRef, units: unitsUpTo(variant, units), unitPriceFen: fen(variant.price), draftRef: newDraftRef() };
  }
  throw new Error('the demo catalog has no more cards that are supplied');
}

const cardsOf = async (clientOrderRef: string): Promise<number> => (await ok('vault.list', { selection: { kind: 'order', clientOrderRef }, offset: 0, limit: 1 })).total;

const exportInput = (clientOrderRef: string): ExportInput => ({ selection: { kind: 'order', clientOrderRef }, format: 'xlsx', language: 'en', password: PASSWORD, passwordConfirm: PASSWORD });

/** Every file and folder under the export staging folder, as relative paths. */
const staged = (exportsDir: string): string[] => readdirSync(exportsDir, { recursive: true, encoding: 'utf8' });

/** Fetches a written export's one-time download with the session's cookie and saves it as the browser would. */
async function download(value: unknown, cookie: string): Promise<string> {
  const { downloadUrl, fileName } = value as { downloadUrl?: string; fileName: string };
  if (downloadUrl === undefined) throw new Error('the export answer offers no download');
  const answer = await fetch(`${host.origin}${downloadUrl}`, { headers: { Cookie: cookie } });
  expect(answer.status).toBe(200);
  const path = join(dataDir, `downloaded-${fileName}`);
  writeFileSync(path, Buffer.from(await answer.arrayBuffer()));
  return path;
}

/** The card rows of an encrypted workbook, decrypted by msoffcrypto-tool (a partial file does not decrypt). */
function workbookRows(path: string): number {
  const plain = `${path}.plain.xlsx`;
  expect(run(MSOFFCRYPTO, ['-p', PASSWORD, path, plain]).status).toBe(0);
  const rows = readXlsx(readFileSync(plain)).rows.length - 1;
  rmSync(plain);
  return rows;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'procure-crash-'));
  host = await runWebHost({
    args: { port: 0, dataDir, demo: true, rendererDir: fakeRendererDir().dir, exitOnStdinClose: false },
    passphrase: 'crash-test-passphrase-not-secret',
    logger: new RedactingLogger({ sink: (line) => logLines.push(line), level: 'info' }),
    notice: () => undefined,
    demoOptions: { timeScale: SCALE },
  });
  const status = await ok('connection.startDemo');
  expect(status).toMatchObject({ balanceFen: expect.any(Number) as unknown });
  userId = (await ok('connection.status')).userId ?? '';
  expect(userId).not.toBe('');
  control = sandboxControl(host.demoControlUrl ?? '', host.demoControlToken ?? '');
  products = await control.products();
}, 120_000);

afterAll(async () => {
  await host?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the core process killed while orders are placed and an export runs', () => {
  it('loses nothing and charges each order exactly once', async () => {
    // Cards to export: one order of many units, delivered before the crash.
    const stock = orderInput(40);
    const stockOrder = await ok('orders.place', stock);
    await waitFor('the stock order’s cards', async () => (await cardsOf(stockOrder.clientOrderRef)) === stock.units, MERCHANT_WAIT_MS);

    // Slow answers from the merchant, so that sends are under way when the core dies.
    await control.faults({ latencyMs: 300 });
    const restarts = { count: 0 };
    const first = [orderInput(2), orderInput(3), orderInput(1)];
    const placedFirst = await Promise.all(first.map((input) => callRetryingRestarts('orders.place', input, restarts)));
    // One of them reached the merchant: the others are being sent or waiting in the outbox.
    await waitFor('a first charge', async () => (await control.ledger(userId)).entries.length > 1, MERCHANT_WAIT_MS);

    // More orders and the export, sent to the core, and the core killed at once: their answers are lost.
    const second = [orderInput(2), orderInput(1), orderInput(2)];
    const cookie = await openSession(host);
    const tab: WireClient = await openClient(socketUrl(host.origin, host.socketPath), host.origin, cookie);
    const exporting = tab.call('vault.export', exportInput(stockOrder.clientOrderRef));
    let answered = false;
    void exporting.then(() => (answered = true));
    // Killed while the workbook is being written (its temporary file exists), or as soon as the export
    // ended if that was too quick to see.
    const exportsDir = join(dataDir, 'exports');
    const writing = (): boolean => staged(exportsDir).some((name) => name.endsWith('.partial'));
    while (!answered && !writing()) await new Promise((resolve) => setTimeout(resolve, 2));
    const placingSecond = second.map((input) => callRetryingRestarts('orders.place', input, restarts));
    const pid = host.core.pid();
    expect(pid).toBeTypeOf('number');
    process.kill(pid ?? -1, 'SIGKILL');
    await control.faults({ latencyMs: 0 });

    const placedSecond = await Promise.all(placingSecond);
    const exported = await exporting;
    expect(host.core.pid()).not.toBe(pid);
    // The kill came while calls were in flight: they were answered CORE_RESTARTED and sent again.
    expect(restarts.count + (exported.ok ? 0 : 1)).toBeGreaterThan(0);

    const placed = [...placedFirst, ...placedSecond].map((result) => {
      if (!result.ok) throw new Error(`orders.place answered ${JSON.stringify(result.error)}`);
      return result.value as ChannelOutput<'orders.place'>;
    });
    const inputs = [...first, ...second];
    expect(new Set(placed.map((o) => o.clientOrderRef)).size).toBe(inputs.length);
    // The same draftRef again answers the same order, after the restart too.
    const again = await ok('orders.place', second[0]);
    expect(again.clientOrderRef).toBe(placed[3]?.clientOrderRef);

    // Every intent resolves: accepted by the merchant, its cards in the vault.
    for (const [index, order] of placed.entries()) {
      const units = inputs[index]?.units ?? 0;
      await waitFor(`the cards of ${order.clientOrderRef}`, async () => (await cardsOf(order.clientOrderRef)) === units, MERCHANT_WAIT_MS);
    }
    const rows = await ok('orders.list', {});
    expect(rows).toHaveLength(inputs.length + 1);

    // The ledger: each order charged exactly once, for what was confirmed, and nothing else.
    const ledger = await control.ledger(userId);
    expect(ledger.entries.every((entry) => entry.kind === 'charge')).toBe(true);
    const charged = ledger.entries.map((entry) => entry.clientOrderRef).sort();
    expect(charged).toEqual([stockOrder.clientOrderRef, ...placed.map((o) => o.clientOrderRef)].sort());
    for (const [index, order] of placed.entries()) {
      const input = inputs[index];
      const entry = ledger.entries.find((e) => e.clientOrderRef === order.clientOrderRef);
      expect(fen(entry?.amount ?? '0')).toBe((input?.units ?? 0) * (input?.unitPriceFen ?? 0));
    }

    // The interrupted export finished (a whole file, offered for download) or left nothing staged: the
    // folder the dead process was writing in was removed when the host restarted it.
    expect(staged(exportsDir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    if (exported.ok) {
      expect(exported.value).toMatchObject({ status: 'written', count: stock.units });
      expect(workbookRows(await download(exported.value, cookie))).toBe(stock.units);
    } else {
      expect(exported.error.code).toBe('CORE_RESTARTED');
    }
    expect(staged(exportsDir)).toEqual([]);

    // Exporting again works, and leaves nothing on the host once downloaded.
    const rerun = await tab.call('vault.export', exportInput(stockOrder.clientOrderRef));
    if (!rerun.ok) throw new Error(`the second export answered ${JSON.stringify(rerun.error)}`);
    expect(rerun.value).toMatchObject({ status: 'written', count: stock.units });
    expect(workbookRows(await download(rerun.value, cookie))).toBe(stock.units);
    expect(staged(exportsDir)).toEqual([]);
    tab.close();
  }, 240_000);
});
