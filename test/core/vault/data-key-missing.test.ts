// basic_text / a secret store that lost its contents, across processes over one data folder: a run
// that bought a card, then a restart whose store no longer has the vault's data key. The second run
// says DataKeyMissing instead of minting a new key (the cards would silently become garbage), stores
// nothing it cannot seal and loses nothing; a third run, where the buyer starts a new key, gets the card
// back by fetching the order again (the re-delivered card replaces the unreadable row). The merchant is
// the sandbox over HTTPS; each step is its own Node process (vault-key-process.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../../src/sandbox/sandbox-options';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/start-sandbox';
import { DATABASE_FILE_NAME } from '../../../src/core/create-core';
import { controlHeaders } from '../../support/control-auth';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, 'vault-key-process.ts');

interface ControlProduct {
  productRef: number;
  productType: string;
  availability: string;
  variants: { variantRef: number; availability: string; supply: string; entryMode: string; unitRule: { min: number }; remainingUnits: number | null }[];
}

describe('vault data key missing, across processes', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  const step = async <T>(...args: string[]): Promise<T> => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env, cwd: process.cwd(), timeout: 90_000 });
    return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T;
  };
  const cardRows = (ref: string): { seq: number; key_id: string }[] => {
    const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    try {
      return db.prepare<[string], { seq: number; key_id: string }>('SELECT seq, key_id FROM cards WHERE client_order_ref = ? ORDER BY seq').all(ref);
    } finally {
      db.close();
    }
  };
  const vaultKeyIds = (): string[] => {
    const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    try {
      return db.prepare<[], { key_id: string }>('SELECT key_id FROM vault_keys ORDER BY key_id').all().map((row) => row.key_id);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ ...DEFAULT_OPTIONS, products: 60, timeScale: 20 }, () => undefined);
    const response = await fetch(`${sandbox.controlUrl}/control/products?limit=60`, { headers: controlHeaders(sandbox.controlToken) });
    const products = (await response.json()) as ControlProduct[];
    const card = products.find((p) => {
      const [variant, ...others] = p.variants;
      return p.productType === 'card' && p.availability === 'available' && others.length === 0 && variant !== undefined && variant.variantRef === 0 &&
        variant.availability === 'available' && variant.supply === 'succeed' && variant.entryMode === 'none' && variant.unitRule.min === 1 && (variant.remainingUnits === null || variant.remainingUnits > 10);
    });
    if (card === undefined) throw new Error('the sandbox catalog has no plain card product');
    dataDir = mkdtempSync(join(tmpdir(), 'procure-vault-key-'));
    env = {
      ...process.env,
      VAULT_TEST_MERCHANT: JSON.stringify({ baseUrl: sandbox.baseUrl, userId: sandbox.userId, apiKey: sandbox.apiKey, caCertFile: sandbox.caCertFile, productRef: card.productRef }),
    };
  });

  afterAll(async () => {
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says DataKeyMissing after a restart, mints nothing by itself, and recovers the card when the buyer starts a new key', async () => {
    const bought = await step<{ clientOrderRef: string; cardNo: string; vaultKeyMissing: boolean }>('buy', dataDir);
    expect(bought.vaultKeyMissing).toBe(false);
    expect(bought.cardNo.length).toBeGreaterThan(0);
    const ref = bought.clientOrderRef;
    const [firstRow] = cardRows(ref);
    expect(firstRow).toBeDefined();
    const keysAfterBuy = vaultKeyIds();

    // A new process, an empty secret store: the key that sealed the card is gone.
    const inspected = await step<{ vaultKeyMissing: boolean; reveal: string; redelivery: string; channels: Record<string, unknown> }>('inspect', dataDir, ref);
    expect(inspected).toMatchObject({ vaultKeyMissing: true, reveal: 'DataKeyMissingError', redelivery: 'DataKeyMissingError' });
    // What the screens get: the status for the vault's banner, the card still listed (masked as
    // unreadable), and DATA_KEY_MISSING, which the buyer sees explained, on a reveal.
    expect(inspected.channels).toEqual({
      keyStatus: { ok: true, value: { missing: true } },
      cards: { ok: true, value: [expect.objectContaining({ seq: 0, cardNoMasked: '••••••••' })] },
      reveal: { ok: false, error: { code: 'DATA_KEY_MISSING', message: expect.stringContaining('missing from the secret store') as unknown } },
    });
    expect(vaultKeyIds(), 'no key was minted in its place').toEqual(keysAfterBuy);
    expect(cardRows(ref), 'the unreadable row is kept as it was').toEqual([firstRow]);

    // Once more without a decision: still missing (a restart alone never starts over).
    const again = await step<{ vaultKeyMissing: boolean }>('inspect', dataDir, ref);
    expect(again.vaultKeyMissing).toBe(true);
    expect(vaultKeyIds()).toEqual(keysAfterBuy);

    const recovered = await step<{ vaultKeyMissingBefore: boolean; vaultKeyMissing: boolean; cardNo: string }>('recover', dataDir, ref);
    expect(recovered).toEqual({ vaultKeyMissingBefore: true, started: { ok: true, value: { missing: false } }, refreshed: true, vaultKeyMissing: false, cardNo: bought.cardNo });
    const rows = cardRows(ref);
    expect(rows.map((row) => row.seq), 'replaced in place, not added').toEqual([0]);
    expect(rows[0]?.key_id).not.toBe(firstRow?.key_id);
    expect(vaultKeyIds()).toHaveLength(keysAfterBuy.length + 1);
  });
});
