// A model of ordering with templates on demand (contract §7.10) checked over random interleavings of
// the merchant going away and coming back, template revision bumps, orders placed (a top-up and a
// card), outbox passes and the buyer confirming what waits for them — against the sandbox over
// HTTPS, SQLite on disk. Whatever the order of events:
// - a create is only ever sent for an intent in `sending` that was checked against a template: a
//   top-up carries exactly the revision its variant shows at that moment (the price guard read the
//   product just before: never a revision the app knows is stale, never none), and a needs_template
//   intent is never sent;
// - every order is charged at most once, an accepted one exactly once, never above the confirmed price.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogRepository } from '../../../src/core/catalog/catalog-repository';
import { createOrderPlacement, type OrderPlacement } from '../../../src/core/orders/order-placement';
import { readCachedTemplate } from '../../../src/core/orders/template-cache';
import {
  changeProduct,
  entriesFor,
  fen,
  goodCard,
  isOpen,
  isTopup,
  ledger,
  setFaults,
  template,
  validEntries,
  type Catalog,
  type Harness,
  type Pick,
  type Template,
} from '../../support/orders-harness';
import { isCreate, launchManualSandboxKit, refOfBody, type ManualSandboxKit, type OrdersKit } from './orders-kit';

const SCALE = 20;
let h: Harness;
let kit: OrdersKit;
let catalog: Catalog;
let opened: ManualSandboxKit | undefined;
let reachable = true;
let placement: OrderPlacement;
let topup: Pick;
let card: Pick;
let topupTemplate: Template;
const violations: string[] = [];

/** `refuse`: the merchant goes away before the connection state knows (fetches fail in transport). */
type Step = 'offline' | 'refuse' | 'online' | 'bump' | 'placeTopup' | 'placeCard' | 'pass' | 'confirm';

beforeAll(async () => {
  opened = await launchManualSandboxKit({ scale: SCALE });
  ({ h, kit, catalog } = opened);
  placement = createOrderPlacement({ templates: kit.templates, intents: kit.intents, logger: kit.logger, reachable: () => reachable });
  topup = catalog.claim((p, v) => isTopup(p) && isOpen(p, v) && v.supply === 'succeed' && v.entryMode === 'single' && p.variants.length === 1, 'single-variant top-up');
  card = catalog.claim((p, v) => goodCard(p, v) && p.variants.length === 1, 'single-variant card');
  topupTemplate = await template(h, kit.account, topup);
  // The catalog knows both variants (their details), as after a sync; no template is cached.
  const repository = createCatalogRepository(kit.temp.db, kit.clock);
  for (const pick of [topup, card]) repository.applyProductSnapshot({ from: 'detail', detail: (await kit.client.getProduct(pick.product.productRef)).data });
  // Checked synchronously as each create is handed to the transport.
  kit.onRequest = (_method, url, body) => {
    if (!isCreate(url)) return;
    const ref = refOfBody(body);
    const sent = JSON.parse(body ?? '{}') as { productRef?: number; purchaseSchemaRevision?: number };
    const intent = ref === null ? null : kit.intents.getIntent(ref);
    if (intent?.status !== 'sending') violations.push(`create for ${String(ref)} while ${String(intent?.status)}`);
    if (sent.productRef === topup.product.productRef) {
      // The variant's revision as the app knows it now (the guard's product read just refreshed it).
      const known = kit.temp.db
        .prepare<[number, number], { rev: number }>('SELECT purchase_schema_revision AS rev FROM variants WHERE product_ref = ? AND variant_ref = ?')
        .get(topup.product.productRef, topup.variant.variantRef)?.rev;
      if (sent.purchaseSchemaRevision === undefined || sent.purchaseSchemaRevision !== known) violations.push(`top-up ${String(ref)} sent with revision ${String(sent.purchaseSchemaRevision)}, the variant shows ${String(known)}`);
    }
  };
});

afterAll(async () => {
  kit.onRequest = null;
  await setFaults(h, { refuseConnections: false }).catch(() => undefined);
  await opened?.close();
});

async function pass(): Promise<void> {
  kit.temp.db.prepare(`UPDATE order_intents SET next_attempt_at = 0 WHERE status IN ('queued', 'unknown', 'needs_template')`).run();
  kit.outbox.poke();
  await kit.outbox.runOnce();
}

/** The buyer confirms what waits for them, with the template the app holds now. */
function confirmWaiting(): void {
  const units = topupTemplate.unitRule.min;
  for (const status of ['needs_confirmation', 'price_changed'] as const) {
    for (const intent of kit.intents.listIntents({ status })) {
      const tpl = readCachedTemplate(kit.temp.db, intent.productRef, intent.variantRef);
      if (tpl === null) continue;
      const entries = intent.productType === 'card' ? [] : validEntries(topupTemplate, units);
      kit.intents.confirmIntent(intent.clientOrderRef, { units: intent.units, purchaseEntries: entries, ...(intent.guardUnitPriceFen === null ? {} : { unitPriceFen: intent.guardUnitPriceFen }) });
    }
  }
}

async function apply(step: Step, refs: Set<string>): Promise<void> {
  switch (step) {
    case 'offline':
      reachable = false;
      await setFaults(h, { refuseConnections: true });
      return;
    case 'refuse':
      await setFaults(h, { refuseConnections: true });
      return;
    case 'online':
      await setFaults(h, { refuseConnections: false });
      reachable = true;
      return;
    case 'bump':
      await changeProduct(h, topup.product.productRef, { variantRef: topup.variant.variantRef, purchaseSchemaRevision: 'bump' });
      return;
    case 'placeTopup': {
      const units = topupTemplate.unitRule.min;
      const intent = await placement.place({ productRef: topup.product.productRef, variantRef: topup.variant.variantRef, units, purchaseEntries: validEntries(topupTemplate, units), unitPriceFen: fen(topup.variant.price) });
      refs.add(intent.clientOrderRef);
      return;
    }
    case 'placeCard': {
      const intent = await placement.place({ productRef: card.product.productRef, variantRef: card.variant.variantRef, units: 1, unitPriceFen: fen(card.variant.price) });
      refs.add(intent.clientOrderRef);
      return;
    }
    case 'pass':
      await pass();
      return;
    case 'confirm':
      confirmWaiting();
      return;
  }
}

describe('templates on demand, modelled', () => {
  it('never sends a stale or missing revision and never charges twice, whatever the interleaving', async () => {
    const steps = fc.constantFrom<Step>('offline', 'refuse', 'online', 'bump', 'placeTopup', 'placeCard', 'pass', 'confirm');
    await fc.assert(
      fc.asyncProperty(fc.array(steps, { minLength: 3, maxLength: 10 }), async (run) => {
        const refs = new Set<string>();
        try {
          for (const step of run) await apply(step, refs);
        } finally {
          await apply('online', refs);
        }
        // The merchant is back for good: everything settles (the buyer confirms what asks for it).
        for (let round = 0; round < 4; round++) {
          await pass();
          confirmWaiting();
        }
        await pass();
        expect(violations).toEqual([]);
        const book = await ledger(h, kit.account);
        for (const ref of refs) {
          const intent = kit.intents.getIntent(ref);
          const charged = entriesFor(book, ref, 'charge').map((e) => fen(e.amount));
          expect(intent?.status, ref).toBe('accepted');
          expect(charged, ref).toHaveLength(1);
          expect(charged[0] ?? 0).toBeLessThanOrEqual((intent?.confirmedUnitPriceFen ?? 0) * (intent?.units ?? 0));
        }
      }),
      { numRuns: 15, endOnFailure: true },
    );
  });
});
