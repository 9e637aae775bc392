// catalog.search through the app service: a price range whose minimum is above its maximum is the
// buyer's mistake, refused as INVALID_INPUT naming minPriceFen (the filter form shows it there),
// never answered as "no products".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../../src/core/app/app-service';
import { createCore, type Core } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

let dataDir: string;
let core: Core;
let app: AppService;
const logger = new RedactingLogger({ sink: () => undefined });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'procure-app-search-'));
  core = await createCore({ dataDir, secrets: new MemorySecretStore(), logger });
  app = createAppService(core, { startDemoMerchant: () => Promise.reject(new Error('no demo')) }, { logger });
});

afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('catalog.search price range', () => {
  it('refuses a minimum above the maximum as INVALID_INPUT on minPriceFen', async () => {
    const result = await app.handle('catalog.search', { minPriceFen: 10_000, maxPriceFen: 5_000 });
    if (result.ok) throw new Error('an inverted range was answered');
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(result.error.fields).toEqual([{ path: 'minPriceFen', message: 'the lowest price is above the highest price' }]);
  });

  it('answers a range with equal bounds, or with one bound', async () => {
    for (const query of [{ minPriceFen: 5_000, maxPriceFen: 5_000 }, { minPriceFen: 10_000 }, { maxPriceFen: 5_000 }]) {
      const result = await app.handle('catalog.search', query);
      expect(result, JSON.stringify(query)).toEqual({ ok: true, value: { total: 0, totalIsLowerBound: false, items: [] } });
    }
  });
});
