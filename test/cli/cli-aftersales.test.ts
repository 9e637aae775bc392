// `aftersales list / open / send / show` as a script runs them against the sandbox: cases opened only
// when the shared rules and the order's allowedActions allow (input refused with exit 2 before
// anything is sent, the merchant's own 409104 exit 3 with its code), messages stored with their
// clientMessageRef before the first send and posted exactly once (a send the merchant never heard
// exits 4 and is delivered later by `run` under the same ref), a closed case exit 3.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { cardProduct, connectedFolder, orderWithCards, waitFor, withRunner } from './cards-kit';
import { jsonErrorOf, jsonOf, runCli, type CliResult } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
let orderA: string;
let orderB: string;
let queued: string;
let caseRef: string;

interface CaseView {
  platformCaseRef: string;
  clientOrderRef: string;
  state: string;
  category: string;
  description: string;
  messages: { clientMessageRef: string | null; sender: string; text: string; delivery: string; lastErrorCode: string | null }[];
}
interface Sent {
  clientMessageRef: string;
  platformCaseRef: string;
  delivery: string;
  messageRef: string | null;
  code: string | null;
}
interface MerchantCase {
  state: string;
  messages: { clientMessageRef: string | null; text: string }[];
}

const cli = (args: readonly string[]): Promise<CliResult> => runCli(dir, args);

async function merchantCase(ref: string): Promise<MerchantCase> {
  const res = await callApi<MerchantCase>(sandbox, 'GET', `/aftersales/${ref}`);
  if (res.json === undefined) throw new Error(`GET /aftersales/${ref}: ${res.text}`);
  return res.json.data;
}

async function merchantAllows(ref: string): Promise<string[]> {
  const res = await callApi<{ allowedActions: string[] }>(sandbox, 'GET', `/orders/${ref}`);
  return res.json?.data.allowedActions ?? [];
}

async function show(ref: string): Promise<CaseView> {
  const result = await cli(['aftersales', 'show', ref, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return jsonOf<CaseView>(result);
}

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20', '--time-scale', '5']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-aftersales-'));
  dir = await connectedFolder(sandbox, root, 'aftersales');
  const product = await cardProduct(sandbox, 1);
  await withRunner(dir, async () => {
    orderA = await orderWithCards(dir, product.productRef, 1);
    orderB = await orderWithCards(dir, product.productRef, 1);
  });
  const parked = await runCli(dir, ['order', 'create', '--product', String(product.productRef), '--units', '1', '--queue-only', '--json']);
  if (parked.code !== 0) throw new Error(parked.stderr);
  queued = jsonOf<{ clientOrderRef: string }>(parked).clientOrderRef;
}, 180_000);

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli aftersales open', () => {
  it('lists no case yet', async () => {
    const json = await cli(['aftersales', 'list', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(jsonOf<unknown[]>(json)).toEqual([]);
    expect((await cli(['aftersales', 'list'])).stdout.trim()).toBe('0 cases');
  });

  it('refuses input that breaks the rules, and unknown orders, with exit 2 before anything is sent', async () => {
    const cases: [string, string[]][] = [
      ['no --type', [orderA, '--text', 'broken card']],
      ['no --text', [orderA, '--type', 'cardInvalid']],
      ['an unknown category', [orderA, '--type', 'bogus', '--text', 'broken card']],
      ['blank text', [orderA, '--type', 'other', '--text', '   ']],
      ['501 characters', [orderA, '--type', 'other', '--text', '字'.repeat(501)]],
      ['an http image', [orderA, '--type', 'other', '--text', 'see image', '--image', 'http://img.example.com/a.png']],
      ['an IP image', [orderA, '--type', 'other', '--text', 'see image', '--image', 'https://127.0.0.1/a.png']],
      ['six images', [orderA, '--type', 'other', '--text', 'see', ...Array.from({ length: 6 }, (_v, i) => ['--image', `https://img.example.com/${i}.png`]).flat()]],
      ['an unknown order', ['o_unknownOrderRef123', '--type', 'other', '--text', 'broken card']],
      ['two references', [orderA, orderB, '--type', 'other', '--text', 'x']],
    ];
    for (const [what, args] of cases) {
      const result = await cli(['aftersales', 'open', ...args, '--json']);
      expect(result.code, `${what}: ${result.stderr}`).toBe(2);
      expect(jsonErrorOf(result).exitCode, what).toBe(2);
    }
    expect(jsonOf<unknown[]>(await cli(['aftersales', 'list', '--json']))).toEqual([]);
    expect(await merchantAllows(orderA)).toContain('aftersale');
  }, 120_000);

  it('an order the merchant has not accepted cannot open a case: exit 3, nothing sent', async () => {
    const result = await cli(['aftersales', 'open', queued, '--type', 'notReceived', '--text', 'nothing came']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('has not accepted');
  });

  it('opens a case (exit 0, the case as JSON), listed and shown offline', async () => {
    const result = await cli(['aftersales', 'open', orderA, '--type', 'cardInvalid', '--text', '  card #1 says already used  ', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const opened = jsonOf<CaseView>(result);
    expect(opened).toMatchObject({ clientOrderRef: orderA, state: 'open', category: 'cardInvalid', description: 'card #1 says already used' });
    caseRef = opened.platformCaseRef;
    expect((await merchantCase(caseRef)).state).toBe('open');
    const list = jsonOf<CaseView[]>(await cli(['aftersales', 'list', '--order', orderA, '--json']));
    expect(list.map((c) => c.platformCaseRef)).toEqual([caseRef]);
    expect(jsonOf<CaseView[]>(await cli(['aftersales', 'list', '--state', 'done', '--json']))).toEqual([]);
    const text = await cli(['aftersales', 'show', caseRef]);
    expect(text.stdout).toContain(`${caseRef}\torder `);
  });

  it('a second case for the same order: exit 3 (stored allowedActions, read again); the merchant\'s own 409104 too', async () => {
    const again = await cli(['aftersales', 'open', orderA, '--type', 'other', '--text', 'something else']);
    expect(again.code, again.stderr).toBe(3);
    expect(again.stderr).toContain('already has an open after-sales case');

    // Another client on the account opens one for B: this machine still thinks B allows a case.
    const elsewhere = await callApi(sandbox, 'POST', '/aftersales', { body: { clientOrderRef: orderB, category: 'other', description: 'opened elsewhere' } });
    expect(elsewhere.status).toBe(200);
    const refused = await cli(['aftersales', 'open', orderB, '--type', 'cardUsed', '--text', 'opened here']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain('409104');
  });
});

describe('cli aftersales send', () => {
  it('posts a message once under its clientMessageRef (exit 0, sent), shown with the case', async () => {
    const result = await cli(['aftersales', 'send', caseRef, '--text', 'any news?', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const sent = jsonOf<Sent>(result);
    expect(sent).toMatchObject({ platformCaseRef: caseRef, delivery: 'sent' });
    expect(sent.messageRef).toBeTruthy();
    expect((await merchantCase(caseRef)).messages.filter((m) => m.clientMessageRef === sent.clientMessageRef)).toHaveLength(1);
    expect((await show(caseRef)).messages.find((m) => m.clientMessageRef === sent.clientMessageRef)).toMatchObject({ delivery: 'sent', text: 'any news?', sender: 'buyer' });
  });

  it('refuses an unknown case, an empty or too long message with exit 2, sending nothing', async () => {
    const before = (await merchantCase(caseRef)).messages.length;
    for (const args of [['c_unknownCaseRef123', '--text', 'hi'], [caseRef], [caseRef, '--text', ' '], [caseRef, '--text', 'x'.repeat(1001)], [caseRef, '--type', 'other', '--text', 'x']]) {
      const result = await cli(['aftersales', 'send', ...args, '--json']);
      expect(result.code, `${args.join(' ').slice(0, 60)}: ${result.stderr}`).toBe(2);
      expect(jsonErrorOf(result).exitCode).toBe(2);
    }
    expect((await merchantCase(caseRef)).messages).toHaveLength(before);
  }, 60_000);

  it('the merchant unreachable: exit 4, the message kept under its ref, and `run` delivers it once', async () => {
    await control(sandbox, 'POST', '/control/faults', { refuseConnections: true });
    let sent: Sent;
    try {
      const result = await cli(['aftersales', 'send', caseRef, '--text', 'sent while away', '--json']);
      expect(result.code, result.stderr).toBe(4);
      sent = jsonOf<Sent>(result);
      expect(sent).toMatchObject({ delivery: 'retrying', code: 'TRANSPORT' });
      expect((await show(caseRef)).messages.find((m) => m.clientMessageRef === sent.clientMessageRef)).toMatchObject({ delivery: 'retrying', lastErrorCode: 'TRANSPORT' });
    } finally {
      await control(sandbox, 'POST', '/control/faults', { refuseConnections: false });
    }
    await withRunner(dir, () => waitFor('the kept message to be sent', async () => (await show(caseRef)).messages.some((m) => m.clientMessageRef === sent.clientMessageRef && m.delivery === 'sent')));
    expect((await merchantCase(caseRef)).messages.filter((m) => m.clientMessageRef === sent.clientMessageRef)).toHaveLength(1);
  }, 120_000);

  it('a case the merchant closed: exit 3 with 409104, the message failed and nothing appended', async () => {
    await control(sandbox, 'POST', `/control/aftersales/${caseRef}/reply`, { text: 'closing this', state: 'closed' });
    const before = (await merchantCase(caseRef)).messages.length;
    const result = await cli(['aftersales', 'send', caseRef, '--text', 'one more thing', '--json']);
    expect(result.code, result.stderr).toBe(3);
    expect(jsonOf<Sent>(result)).toMatchObject({ delivery: 'failed', code: '409104' });
    expect((await merchantCase(caseRef)).messages).toHaveLength(before);
    // Now stored as closed: refused here, before sending.
    const again = await cli(['aftersales', 'send', caseRef, '--text', 'still there?']);
    expect(again.code).toBe(3);
    expect((await show(caseRef)).state).toBe('closed');
  });
});
