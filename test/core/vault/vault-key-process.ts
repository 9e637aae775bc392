// One run of the app's core over a data folder, as its own process, with secrets in memory only (the
// Electron shell's store on Linux's basic_text backend, or any store that lost its contents): every
// process starts with an empty secret store, as the app does after a restart. Steps, one per run:
//   buy DIR               connect, order one card, wait for it, print its number
//   inspect DIR REF       print what the vault says now, through the app's channels as the screens ask
//                         (key status, the masked list, a reveal) and a re-delivery of the order
//   recover DIR REF       vault.startNewKey (the buyer's choice), orders.refresh (opening the order),
//                         vault.reveal: print the card
// The merchant comes from VAULT_TEST_MERCHANT (JSON: baseUrl, userId, apiKey, caCertFile, productRef).
// Output: one JSON line on stdout.
import { readFileSync } from 'node:fs';
import { createAppService, type AppService } from '../../../src/core/app/app-service';
import { createCore, type Core, type MerchantServices } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

interface MerchantInfo {
  baseUrl: string;
  userId: string;
  apiKey: string;
  caCertFile: string;
  productRef: number;
}

const [step, dataDir, ref] = process.argv.slice(2);
const merchant = JSON.parse(process.env['VAULT_TEST_MERCHANT'] ?? '{}') as MerchantInfo;
const logger = new RedactingLogger({ sink: (line) => void process.stderr.write(`${line}\n`), level: 'info' });

const errorName = (error: unknown): string => (error instanceof Error ? error.name : String(error));

async function connected(core: Core): Promise<MerchantServices> {
  await core.connect({ baseUrl: merchant.baseUrl, userId: merchant.userId, apiKey: merchant.apiKey, caCertPem: readFileSync(merchant.caCertFile, 'utf8') });
  return core.merchant();
}

async function until<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function buy(core: Core): Promise<unknown> {
  const services = await connected(core);
  const { data: detail } = await services.client.getProduct(merchant.productRef);
  core.catalog.applyProductSnapshot({ from: 'detail', detail });
  const { data: template } = await services.client.getTemplate(merchant.productRef, 0);
  core.catalog.upsertTemplate(template);
  const intent = services.intents.placeOrder({ productRef: merchant.productRef, variantRef: 0, units: 1 });
  const clientOrderRef = intent.clientOrderRef;
  await until('the order to be accepted', async () => {
    await services.outbox.submit(clientOrderRef);
    return services.intents.getIntent(clientOrderRef)?.status === 'accepted' ? true : null;
  });
  await until('the cards', async () => {
    await services.tracker.refresh(clientOrderRef);
    return core.vault.listCards(clientOrderRef).length > 0 ? true : null;
  });
  return { clientOrderRef, cardNo: core.vault.revealCard(clientOrderRef, 0).cardNo, vaultKeyMissing: core.vaultKeyMissing() };
}

async function inspect(core: Core, clientOrderRef: string): Promise<unknown> {
  const missing = core.vaultKeyMissing();
  let reveal = 'revealed';
  try {
    core.vault.revealCard(clientOrderRef, 0);
  } catch (error) {
    reveal = errorName(error);
  }
  const service = appService(core);
  const channels = {
    keyStatus: await service.handle('vault.keyStatus', undefined),
    cards: await service.handle('vault.cards', { clientOrderRef }),
    reveal: await service.handle('vault.reveal', { clientOrderRef, seq: 0 }),
  };
  // The merchant delivers the cards again; with no key they cannot be stored, and nothing is lost.
  let redelivery = 'stored';
  try {
    const services = await connected(core);
    await services.tracker.refresh(clientOrderRef);
  } catch (error) {
    redelivery = errorName(error);
  }
  return { vaultKeyMissing: missing, reveal, redelivery, channels };
}

async function recover(core: Core, clientOrderRef: string): Promise<unknown> {
  const missingBefore = core.vaultKeyMissing();
  await connected(core);
  const service = appService(core);
  const started = await service.handle('vault.startNewKey', undefined);
  const refreshed = await service.handle('orders.refresh', { clientOrderRef });
  const revealed = await service.handle('vault.reveal', { clientOrderRef, seq: 0 });
  return {
    vaultKeyMissingBefore: missingBefore,
    started,
    refreshed: refreshed.ok,
    vaultKeyMissing: core.vaultKeyMissing(),
    cardNo: revealed.ok ? (revealed.value as { cardNo: string }).cardNo : revealed.error.code,
  };
}

function appService(core: Core): AppService {
  return createAppService(core, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) }, { logger });
}

async function main(): Promise<void> {
  if (dataDir === undefined) throw new Error('usage: vault-key-process.ts STEP DIR [REF]');
  const core = await createCore({ dataDir, secrets: new MemorySecretStore(), logger });
  try {
    const result = step === 'buy' ? await buy(core) : step === 'inspect' ? await inspect(core, ref ?? '') : await recover(core, ref ?? '');
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await core.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
