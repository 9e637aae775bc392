// Cards in a CLI data folder the way a buyer gets them: a connected folder, `run --webhook-port 0
// --tunnel loopback` in the background (the sandbox's webhooks bring the order's credentials within
// seconds), card orders placed with `order create`, and a refund asked for by a second client on the
// same account. Plus the audit log read straight from the database.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { callApi, control } from '../support/merchant-http';
import type { RunningSandbox } from '../support/sandbox-process';
import { jsonOf, runCli, spawnCli, type CliResult, type ControlProduct, type SpawnedCli } from './cli-kit';

export async function connectedFolder(sandbox: RunningSandbox, root: string, name: string): Promise<string> {
  const dir = join(mkdtempSync(join(root, `${name}-`)), 'data');
  const connected = await runCli(dir, ['connect', '--base-url', sandbox.baseUrl, '--user-id', sandbox.userId, '--ca-cert', sandbox.caCertFile], { apiKeyEnv: sandbox.apiKey });
  if (connected.code !== 0) throw new Error(`connect failed: ${connected.stderr}`);
  return dir;
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `run` with the webhook receiver while `work` runs; stopped with SIGTERM after it. */
export async function withRunner<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const run: SpawnedCli = spawnCli(dataDir, ['run', '--webhook-port', '0', '--tunnel', 'loopback'], { timeoutMs: 300_000 });
  let result: T;
  try {
    await firstLine(run);
    result = await work();
  } finally {
    run.child.kill('SIGTERM');
  }
  const finished = await run.result;
  if (finished.code !== 0) throw new Error(`run exited ${String(finished.code)}: ${finished.stderr}`);
  return result;
}

function firstLine(run: SpawnedCli, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no line from run within ${timeoutMs} ms; so far: ${text}`)), timeoutMs);
    const onData = (chunk: string): void => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      run.child.stdout?.off('data', onData);
      resolve(text.slice(0, end));
    };
    run.child.stdout?.on('data', onData);
  });
}

/** A card product that completes by itself, and how many units one order of it may take (up to `want`). */
export async function cardProduct(sandbox: RunningSandbox, want: number): Promise<{ productRef: number; units: number }> {
  const products = await control<ControlProduct[]>(sandbox, 'GET', '/control/products?limit=200');
  for (const product of products) {
    const [variant, ...others] = product.variants;
    if (product.productType !== 'card' || product.availability !== 'available' || variant === undefined || others.length > 0) continue;
    if (variant.supply !== 'succeed' || variant.availability !== 'available' || variant.unitRule.min !== 1 || variant.unitRule.step !== 1) continue;
    if (variant.remainingUnits !== null && variant.remainingUnits < 100) continue;
    return { productRef: product.productRef, units: Math.min(want, variant.unitRule.max) };
  }
  throw new Error('the sandbox catalog has no plain card product');
}

interface ShownOrder {
  order: { state: string } | null;
  cards: { seq: number; cardNoMasked: string }[];
}

export async function orderShow(dataDir: string, ref: string): Promise<ShownOrder> {
  const shown = await runCli(dataDir, ['order', 'show', ref, '--json']);
  if (shown.code !== 0) throw new Error(`order show ${ref}: ${shown.stderr}`);
  return jsonOf<ShownOrder>(shown);
}

/** Places a card order and waits (a runner must be going) until its cards are in the vault. */
export async function orderWithCards(dataDir: string, productRef: number, units: number): Promise<string> {
  const created: CliResult = await runCli(dataDir, ['order', 'create', '--product', String(productRef), '--units', String(units), '--json']);
  if (created.code !== 0) throw new Error(`order create: ${created.stderr}`);
  const ref = jsonOf<{ clientOrderRef: string }>(created).clientOrderRef;
  await waitFor(`the cards of ${ref}`, async () => (await orderShow(dataDir, ref)).cards.length === units);
  return ref;
}

/** A full refund asked for by another client on the same account; waits until this folder has the order refunded. */
export async function refundInFull(sandbox: RunningSandbox, dataDir: string, ref: string): Promise<void> {
  const asked = await callApi(sandbox, 'POST', `/orders/${ref}/refunds`, { body: { clientRefundRef: `r_${ref.slice(2, 40)}`, reason: 'cli test: refunded elsewhere' } });
  if (asked.status !== 200) throw new Error(`refund of ${ref}: ${asked.text}`);
  await waitFor(`order ${ref} refunded here`, async () => (await orderShow(dataDir, ref)).order?.state === 'refunded');
}

export interface AuditRow {
  id: number;
  action: string;
  subject: string;
  card_count: number;
  format: string | null;
  detail: string | null;
}

export function auditRows(dataDir: string): AuditRow[] {
  const db = new Database(join(dataDir, 'procure-desk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], AuditRow>('SELECT id, action, subject, card_count, format, detail FROM audit_log ORDER BY id').all();
  } finally {
    db.close();
  }
}
