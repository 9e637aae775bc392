// The control API's fault "500 on every create" (serverErrorOn, docs/sandbox.md) and the request log
// (GET /control/requests), over real HTTPS against a sandbox process: every create answers 500001
// and creates and charges nothing; order look-ups fail too when asked; lifting it brings the merchant back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlHeaders } from '../support/control-auth';
import { callApi, control } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '50']);
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

interface Seen {
  method: string;
  path: string;
  clientOrderRef: string | null;
  status: number;
  requestId: string;
}

const balance = async (): Promise<string> => (await control<{ balance: string }>(sandbox, 'GET', `/control/ledger/${sandbox.userId}`)).balance;
const requests = (query: string): Promise<Seen[]> => control<Seen[]>(sandbox, 'GET', `/control/requests?${query}`);

async function aCardProduct(): Promise<{ productRef: number; variantRef: number }> {
  const products = await control<{ productRef: number; productType: string; availability: string; variants: { variantRef: number; availability: string; supply: string; entryMode: string; remainingUnits: number | null }[] }[]>(sandbox, 'GET', '/control/products?limit=200');
  for (const p of products) {
    if (p.productType !== 'card' || p.availability !== 'available') continue;
    const v = p.variants.find((x) => x.availability === 'available' && x.supply === 'succeed' && (x.remainingUnits === null || x.remainingUnits > 2));
    if (v) return { productRef: p.productRef, variantRef: v.variantRef };
  }
  throw new Error('no card product');
}

describe('sandbox fault serverErrorOn', () => {
  it('answers 500001 to every create, creating and charging nothing, logs each request, and lifts', async () => {
    const { productRef, variantRef } = await aCardProduct();
    const tpl = await callApi<{ purchaseSchemaRevision: number }>(sandbox, 'GET', `/goods/tpl?productRef=${productRef}&variantRef=${variantRef}`);
    const body = { clientOrderRef: 'fault500_a', productRef, variantRef, units: 1, purchaseSchemaRevision: tpl.json?.data?.purchaseSchemaRevision };
    const before = await balance();

    const set = await control<{ serverErrorOn: string[] }>(sandbox, 'POST', '/control/faults', { serverErrorOn: ['orderCreate'] });
    expect(set.serverErrorOn).toEqual(['orderCreate']);
    for (let i = 0; i < 3; i++) {
      const answer = await callApi(sandbox, 'POST', '/orders/create', { body });
      expect(answer.status).toBe(500);
      expect(answer.json?.code).toBe(500001);
    }
    // Nothing was created: the look-up (not under the fault) says so, and nothing was charged.
    expect((await callApi(sandbox, 'GET', '/orders/fault500_a')).json?.code).toBe(404002);
    expect(await balance()).toBe(before);

    await control(sandbox, 'POST', '/control/faults', { serverErrorOn: ['orderCreate', 'orderLookup'] });
    expect((await callApi(sandbox, 'GET', '/orders/fault500_a')).status).toBe(500);
    // Other endpoints are not touched.
    expect((await callApi(sandbox, 'GET', '/account')).status).toBe(200);

    const seen = await requests('clientOrderRef=fault500_a');
    expect(seen.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /orders/create 500',
      'POST /orders/create 500',
      'POST /orders/create 500',
      'GET /orders/fault500_a 404',
      'GET /orders/fault500_a 500',
    ]);
    expect(new Set(seen.map((r) => r.requestId)).size).toBe(5);
    expect((await requests('path=/orders/create')).filter((r) => r.clientOrderRef === 'fault500_a')).toHaveLength(3);

    await control(sandbox, 'POST', '/control/faults', { serverErrorOn: [] });
    const created = await callApi(sandbox, 'POST', '/orders/create', { body });
    expect(created.status).toBe(200);
    expect(await balance()).not.toBe(before);
  });

  it('refuses a target it does not know, and the log needs the control token', async () => {
    const refused = await fetch(`${sandbox.controlUrl}/control/faults`, {
      method: 'POST',
      headers: controlHeaders(sandbox.controlToken, 'POST'),
      body: JSON.stringify({ serverErrorOn: ['everything'] }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/orderCreate, orderLookup/);
    expect((await fetch(`${sandbox.controlUrl}/control/requests`)).status).toBe(401);
  });
});
