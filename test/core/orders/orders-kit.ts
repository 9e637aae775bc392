// Core's orders module wired exactly as the app wires it (node:https port, quota model, request
// sender, client; SQLite on disk with all migrations; a memory secret store and the card cipher; a
// redacting logger into an in-memory sink), against a real sandbox over HTTPS with a fresh account.
// The HttpPort is wrapped twice: a hook that runs as each request is handed to the transport (to
// look at the database at that very moment), and a switch that points the client at a closed port
// (the merchant unreachable). Every exchange is recorded.
import type { HttpPort } from '../../../src/core/merchant/http-port';
import { createMerchantClient, type MerchantClient } from '../../../src/core/merchant/merchant-client';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { createQuotaModel } from '../../../src/core/merchant/quota-model';
import { createRequestSender } from '../../../src/core/merchant/request-sender';
import type { RetryPolicy } from '../../../src/core/merchant/retry-policy';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createScaledClock, type Clock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';
import { createVaultReader, type VaultReader } from '../../../src/core/vault/vault-reader';
import { createOrderActions, type OrderActions } from '../../../src/core/orders/order-actions';
import { createOrderIntents, type OrderIntents } from '../../../src/core/orders/order-intents';
import { createOrderOutbox, type OrderOutbox } from '../../../src/core/orders/order-outbox';
import { createOrderTracker, type OrderTracker } from '../../../src/core/orders/order-tracker';
import { createCatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { storeTemplate } from '../../../src/core/orders/template-cache';
import { createTemplateSource, type TemplateSource } from '../../../src/core/orders/template-source';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';
import { recordingPort, type Exchange } from '../merchant/client-kit';
import { Catalog, controlProducts, launch, newAccount, type Account, type Harness } from '../../support/orders-harness';

export interface OrdersKit {
  readonly h: Harness;
  readonly account: Account;
  readonly temp: TempDatabase;
  readonly clock: Clock;
  readonly client: MerchantClient;
  readonly exchanges: Exchange[];
  readonly logLines: string[];
  readonly logger: RedactingLogger;
  readonly cipher: CardCipher;
  readonly intents: OrderIntents;
  readonly templates: TemplateSource;
  readonly outbox: OrderOutbox;
  readonly tracker: OrderTracker;
  readonly actions: OrderActions;
  readonly vault: VaultReader;
  /** Runs synchronously as each request is handed to the transport. */
  onRequest: ((method: string, url: string, body: string | undefined) => void) | null;
  /** While true, every request goes to a closed port (connection refused). */
  offline: boolean;
  /** What the outbox is told is the live callback URL (null: no webhook path). */
  liveCallbackUrl: string | null;
  /** Caches the product (its detail, prices included) and its template, as a catalog sync would. */
  seedTemplate(productRef: number, variantRef: number, productType: string): Promise<void>;
  close(): Promise<void>;
}

export interface KitOptions {
  readonly scale: number;
  /** Real milliseconds per request. */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly concurrency?: number;
  readonly balance?: string;
}

/** A port nothing listens on: connecting is refused at once. */
const CLOSED = 'https://127.0.0.1:1';

export async function createOrdersKit(h: Harness, options: KitOptions): Promise<OrdersKit> {
  const account = await newAccount(h, options.balance ?? '1000000');
  const temp = createMigratedDatabase();
  const clock = createScaledClock(options.scale);
  const logLines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  const https = createNodeHttpsPort({ ca: h.sandbox.ca });
  const base = new URL(h.sandbox.baseUrl);
  const kit: { onRequest: OrdersKit['onRequest']; offline: boolean; liveCallbackUrl: string | null } = { onRequest: null, offline: false, liveCallbackUrl: null };
  const switching: HttpPort = (request) => {
    kit.onRequest?.(request.method, request.url, request.body);
    const url = kit.offline ? request.url.replace(base.origin, CLOSED) : request.url;
    return https({ ...request, url });
  };
  const { port, exchanges } = recordingPort(switching, clock);
  const send = createRequestSender({
    baseUrl: h.sandbox.baseUrl,
    credentials: () => Promise.resolve({ userId: account.userId, apiKey: account.apiKey }),
    http: port,
    quota: createQuotaModel(clock),
    clock,
    logger,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  logger.registerSecret(account.apiKey);
  const client = createMerchantClient(send);
  const cipher = await CardCipher.open(new MemorySecretStore());
  const db = temp.db;
  const tracker = createOrderTracker({ db, client, clock, logger, cipher, concurrency: options.concurrency ?? 4 });
  const catalog = createCatalogRepository(db, clock);
  const templates = createTemplateSource({ db, client, catalog, logger });
  const outbox = createOrderOutbox({
    db,
    client,
    templates,
    clock,
    logger,
    cipher,
    catalog,
    concurrency: options.concurrency ?? 4,
    liveCallbackUrl: () => kit.liveCallbackUrl,
    onAccepted: (order) => tracker.track(order),
  });
  const intents = createOrderIntents({ db, clock, logger });
  const actions = createOrderActions({ db, client, clock, logger, tracker });
  const vault = createVaultReader({ db, cipher, now: () => Math.floor(clock.nowMs() / 1000) });

  const result: OrdersKit = {
    h,
    account,
    temp,
    clock,
    client,
    exchanges,
    logLines,
    logger,
    cipher,
    intents,
    templates,
    outbox,
    tracker,
    actions,
    vault,
    get onRequest() {
      return kit.onRequest;
    },
    set onRequest(hook) {
      kit.onRequest = hook;
    },
    get offline() {
      return kit.offline;
    },
    set offline(value) {
      kit.offline = value;
    },
    get liveCallbackUrl() {
      return kit.liveCallbackUrl;
    },
    set liveCallbackUrl(value) {
      kit.liveCallbackUrl = value;
    },
    async seedTemplate(productRef, variantRef, productType) {
      const { data: detail } = await client.getProduct(productRef);
      if (detail.productType !== productType) throw new Error(`product ${productRef} is ${detail.productType}, not ${productType}`);
      catalog.applyProductSnapshot({ from: 'detail', detail });
      const { data } = await client.getTemplate(productRef, variantRef);
      storeTemplate(db, data, Math.floor(clock.nowMs() / 1000));
    },
    async close() {
      await outbox.stop();
      await tracker.stop();
      https.close();
      temp.dispose();
    },
  };
  return result;
}

/** Real-time wait until `predicate` holds (checked every `everyMs`), or throws with `what`. */
export async function waitUntil(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The clientOrderRef of a create request body. */
export function refOfBody(body: string | undefined): string | null {
  if (body === undefined) return null;
  const parsed = JSON.parse(body) as { clientOrderRef?: unknown };
  return typeof parsed.clientOrderRef === 'string' ? parsed.clientOrderRef : null;
}

export const isCreate = (url: string): boolean => new URL(url).pathname.endsWith('/orders/create');

/**
 * Sandbox faults: creates are processed (and charged) and their answers lost, every other request is
 * answered: the price guard's product read before each send must get through.
 */
export const DROP_CREATE_ANSWERS = { dropRate: 1, dropPaths: ['/orders/create'] };
export const NO_DROPS = { dropRate: 0, dropPaths: [] };

/** A sandbox whose orders progress only when a test moves them, an orders kit on it, and its catalog. */
export interface ManualSandboxKit {
  readonly h: Harness;
  readonly kit: OrdersKit;
  readonly catalog: Catalog;
  close(): Promise<void>;
}

export async function launchManualSandboxKit(options: KitOptions): Promise<ManualSandboxKit> {
  const h = await launch(['--auto-advance', 'off'], options.scale);
  const kit = await createOrdersKit(h, options);
  const catalog = new Catalog(await controlProducts(h));
  return {
    h,
    kit,
    catalog,
    async close() {
      await kit.close();
      await h.sandbox.stop();
    },
  };
}
