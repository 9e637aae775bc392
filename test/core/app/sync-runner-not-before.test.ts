// A catalog sync the merchant tells to wait (Retry-After beyond what a call sleeps through) ends at
// once with the time, says so, sends nothing before that time, and resumes by itself then,
// over real HTTPS against the hostile merchant with a core on disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppEvents } from '../../../src/core/app/app-events';
import { createSyncRunner } from '../../../src/core/app/sync-runner';
import { createCore, type Core } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createScaledClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { startHostileMerchant, type HostileMerchant } from '../../support/hostile-merchant';
import { recordingPort, type Exchange } from '../merchant/client-kit';

// Two minutes of Retry-After pass in 0.2 s.
const SCALE = 600;
let merchant: HostileMerchant;
let core: Core;
let dataDir: string;
const closers: (() => void)[] = [];
const exchanges: Exchange[] = [];

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: 12 });
  dataDir = mkdtempSync(join(tmpdir(), 'procure-sync-wait-'));
  const clock = createScaledClock(SCALE);
  core = await createCore({
    dataDir,
    secrets: new MemorySecretStore(),
    logger: new RedactingLogger({ sink: () => undefined, level: 'error' }),
    clock,
    http: (ca) => {
      const https = createNodeHttpsPort(ca === null ? {} : { ca });
      closers.push(() => https.close());
      const recording = recordingPort(https, clock);
      return async (request) => {
        const answer = recording.port(request);
        exchanges.push(...recording.exchanges.splice(0));
        return answer;
      };
    },
  });
  await core.connect({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, caCertPem: merchant.ca });
});
afterAll(async () => {
  await core?.close();
  for (const close of closers) close();
  await merchant?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('catalog sync and a merchant’s "not before"', () => {
  it('ends at once with the time, sends nothing before it, and resumes by itself then', async () => {
    const logger = new RedactingLogger({ sink: () => undefined, level: 'error' });
    const runner = createSyncRunner(core, createAppEvents(logger), logger);
    const services = await core.merchant();
    merchant.mode({ kind: 'retryAfter', value: '120' });
    merchant.requests.length = 0;
    exchanges.length = 0;
    runner.start(services);
    await runner.finished();
    expect(runner.status().failure).toMatchObject({ kind: 'notBefore', merchantCode: null });
    // The time named is 120 s after the refusal (not after "now": at 600× a loaded machine's pause is minutes).
    const refusedAt = exchanges.find((exchange) => exchange.status === 429)?.doneAt ?? Infinity;
    expect(runner.status().failure?.notBeforeAt).toBeGreaterThanOrEqual(Math.floor(refusedAt / 1000) + 119);
    expect(merchant.requests).toHaveLength(1);

    // The merchant would answer now, but the time it named has not come: nothing is sent before it.
    merchant.mode({ kind: 'normal' });
    for (let i = 0; i < 1000 && core.catalog.readSyncState()?.phase !== 'done'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.finished();
    expect(core.catalog.readSyncState()?.phase).toBe('done');
    expect(core.catalog.counts().products).toBe(12);
    const second = merchant.requests[1];
    expect(second?.path).toMatch(/^\/categories/);
    await runner.stop();
    // The resumed sync's first request went no earlier than the time named (the core's clock).
    const [refused, resumed] = exchanges;
    expect(refused?.status).toBe(429);
    expect((resumed?.sentAt ?? 0) - (refused?.doneAt ?? Infinity)).toBeGreaterThanOrEqual(120_000);
  });
});
