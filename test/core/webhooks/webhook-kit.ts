// What the receiver and inbox tests share: the orders kit (sandbox account, client, tracker, vault on
// an on-disk database with every migration) plus the catalog repository, the webhook receiver and the
// inbox processor over the same database, and a plain HTTP poster that sends exactly what a test says.
import { request } from 'node:http';
import { createCatalogRepository, type CatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { createInboxProcessor, type InboxProcessor } from '../../../src/core/webhooks/inbox-processor';
import { createWebhookInbox, type WebhookInbox } from '../../../src/core/webhooks/webhook-inbox';
import { createWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from '../../../src/core/webhooks/webhook-receiver';
import { createOrdersKit, type KitOptions, type OrdersKit } from '../orders/orders-kit';
import type { BackoffRule } from '../../../src/shared/backoff';
import type { Harness } from '../../support/orders-harness';

export interface Processed {
  readonly eventId: string;
  readonly eventType: string;
  readonly outcome: string;
}

export interface EventsKit {
  readonly o: OrdersKit;
  readonly catalog: CatalogRepository;
  readonly inbox: WebhookInbox;
  readonly receiver: WebhookReceiver;
  readonly processor: InboxProcessor;
  readonly processed: Processed[];
  /** http://127.0.0.1:PORT/hooks/TOKEN */
  url(): string;
  close(): Promise<void>;
}

export interface EventsKitOptions {
  readonly scale: number;
  readonly orders?: Omit<KitOptions, 'scale'>;
  readonly receiver?: Partial<WebhookReceiverOptions>;
  readonly backoff?: BackoffRule;
  /** Start the processor's loop (default); false: the test calls processPending itself. */
  readonly autoProcess?: boolean;
}

export async function createEventsKit(h: Harness, options: EventsKitOptions): Promise<EventsKit> {
  const o = await createOrdersKit(h, { ...options.orders, scale: options.scale });
  const db = o.temp.db;
  const catalog = createCatalogRepository(db, o.clock);
  const processed: Processed[] = [];
  const processor = createInboxProcessor({
    db,
    cipher: o.cipher,
    clock: o.clock,
    logger: o.logger,
    catalog,
    client: o.client,
    tracker: o.tracker,
    onProcessed: (eventId, eventType, outcome) => processed.push({ eventId, eventType, outcome }),
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
  const receiver = createWebhookReceiver({
    db,
    cipher: o.cipher,
    logger: o.logger,
    clock: o.clock,
    onStored: () => processor.poke(),
    ...options.receiver,
  });
  const { port } = await receiver.start();
  if (options.autoProcess !== false) processor.start();
  return {
    o,
    catalog,
    inbox: createWebhookInbox(db, o.cipher),
    receiver,
    processor,
    processed,
    url: () => `http://127.0.0.1:${port}${receiver.path()}`,
    async close() {
      await processor.stop();
      await receiver.stop();
      await o.close();
    },
  };
}

export interface PostResult {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

/** One request on a fresh connection; `body` as is (string) or JSON. */
export function post(url: string, body: unknown, init: { method?: string; contentType?: string | null; headers?: Record<string, string> } = {}): Promise<PostResult> {
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers: Record<string, string> = { ...init.headers };
  if (init.contentType !== null) headers['content-type'] = init.contentType ?? 'application/json';
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers, ms: performance.now() - started }));
      res.on('error', reject);
    });
    // A server that answers early (413) and closes may make our write fail: the answer still counts.
    req.on('error', reject);
    req.end(payload);
  });
}

/** Places a card order the way the app does (intent, then the outbox) and returns its ref. */
export async function placeCardOrder(kit: EventsKit, pick: { product: { productRef: number }; variant: { variantRef: number } }, orderCallbackUrl?: string): Promise<string> {
  await kit.o.seedTemplate(pick.product.productRef, pick.variant.variantRef, 'card');
  const intent = kit.o.intents.placeOrder({
    productRef: pick.product.productRef,
    variantRef: pick.variant.variantRef,
    units: 2,
    ...(orderCallbackUrl === undefined ? {} : { orderCallbackUrl }),
  });
  await kit.o.outbox.runOnce();
  return intent.clientOrderRef;
}

/** An order.changed body for `order` (as GET /orders shows it), card_list null as contract §10.1 says. */
export function orderChangedBody(eventId: string, order: Record<string, unknown> & { clientOrderRef: string; platformOrderRef: string; revision: number }): Record<string, unknown> {
  return {
    eventId,
    eventType: 'order.changed',
    occurredAt: Math.floor(Date.now() / 1000),
    clientOrderRef: order.clientOrderRef,
    platformOrderRef: order.platformOrderRef,
    revision: order.revision,
    changedProperties: ['state'],
    orderSnapshot: { ...order, card_list: null },
  };
}

export function inboxCount(kit: EventsKit): number {
  return kit.o.temp.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webhook_inbox').get()?.n ?? 0;
}
