// Benchmark (c): snapshot upserts per second through the catalog repository's one snapshot function
// (applyProductSnapshot / applyProductSnapshots), with the sandbox's seeded catalog turned into
// product details as GET /goods/{ref} would show them (money in fen, hidden stock hidden). It
// fills the 100,000-product cache that the search benchmark (b) then queries.
//   bulk:    details applied 1,000 per transaction (a fill; one fsync per batch)
//   durable: one snapshot per transaction, as a product.changed webhook or a sync detail is
//            applied (one fsync each), on products already cached (price and stock move)
import type { SnapshotSource } from '../src/core/catalog/catalog-repository';
import { createCatalogRepository, type CatalogRepository } from '../src/core/catalog/catalog-repository';
import type { Clock } from '../src/core/platform/clock';
import { systemClock } from '../src/core/platform/clock';
import { seedCatalog } from '../src/sandbox/catalog/seed-catalog';
import type { Product } from '../src/sandbox/domain/catalog-types';
import type { ProductDetail } from '../src/shared/merchant/catalog';
import type { BenchDatabase } from './bench-database';

const BULK_BATCH = 1000;
const DURABLE_SAMPLE = 2000;

export function detailOf(product: Product, revision = product.revision): ProductDetail {
  return {
    productRef: product.productRef,
    catalogRef: product.catalogRef,
    brand: product.brand ? { brandRef: product.brand.brandRef, name: product.brand.name, imageUrl: product.brand.imageUrl } : null,
    availability: product.availability,
    revision,
    name: product.name,
    productType: product.productType,
    description: product.description,
    imageUrl: product.imageUrl,
    variants: product.variants.map((v) => ({
      variantRef: v.variantRef,
      title: v.title,
      price: v.priceFen,
      faceValue: v.faceValueFen,
      availability: v.availability,
      inventoryType: v.inventoryType,
      remainingUnits: v.inventoryType === 'tracked' ? v.remainingUnits : null,
      purchaseSchemaRevision: v.template.purchaseSchemaRevision,
    })),
  };
}

export interface UpsertResult {
  readonly lines: string[];
  readonly repository: CatalogRepository;
  readonly products: readonly Product[];
}

export function benchSnapshotUpserts(target: BenchDatabase, productCount: number, clock: Clock = systemClock): UpsertResult {
  const lines: string[] = [];
  const repository = createCatalogRepository(target.db, clock);
  const seedStarted = performance.now();
  const seed = seedCatalog({ products: productCount, seed: 1, nowSeconds: Math.floor(clock.nowMs() / 1000) - 60 });
  const seedMs = performance.now() - seedStarted;
  const counts = new Map<number, number>();
  for (const p of seed.products) counts.set(p.catalogRef, (counts.get(p.catalogRef) ?? 0) + 1);
  repository.replaceCategories(
    seed.categories.map((c) => ({ ...c, productCount: counts.get(c.catalogRef) ?? 0 })),
  );

  const sources: SnapshotSource[] = seed.products.map((p) => ({ from: 'detail', detail: detailOf(p) }));
  const bulkStarted = performance.now();
  for (let i = 0; i < sources.length; i += BULK_BATCH) repository.applyProductSnapshots(sources.slice(i, i + BULK_BATCH));
  const bulkMs = performance.now() - bulkStarted;
  lines.push(
    `snapshot upserts (bulk, ${BULK_BATCH}/transaction): ${sources.length} products in ${(bulkMs / 1000).toFixed(1)} s, ${Math.round(sources.length / (bulkMs / 1000))}/s (seed generation ${(seedMs / 1000).toFixed(1)} s not included)`,
  );

  // Durable path: a newer snapshot of an existing product, price and stock changed, one transaction each.
  const sample = seed.products.filter((_, i) => i % Math.max(1, Math.floor(seed.products.length / DURABLE_SAMPLE)) === 0).slice(0, DURABLE_SAMPLE);
  const updates: SnapshotSource[] = sample.map((p) => {
    const detail = detailOf(p, p.revision + 1);
    return {
      from: 'event',
      snapshot: {
        productRef: detail.productRef,
        catalogRef: detail.catalogRef,
        brand: detail.brand,
        availability: detail.availability,
        revision: detail.revision,
        variants: detail.variants.map((v, i) => ({ ...v, price: i === 0 ? v.price + 1 : v.price })),
      },
    };
  });
  const durableStarted = performance.now();
  let applied = 0;
  for (const update of updates) if (repository.applyProductSnapshot(update).kind === 'applied') applied += 1;
  const durableMs = performance.now() - durableStarted;
  lines.push(
    `snapshot upserts (durable, 1/transaction, synchronous=FULL): ${applied} snapshots in ${(durableMs / 1000).toFixed(2)} s, ${Math.round(applied / (durableMs / 1000))}/s`,
  );
  return { lines, repository, products: seed.products };
}
