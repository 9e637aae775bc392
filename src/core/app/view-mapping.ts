// Core's rows and merchant objects as the contract's views: plain data, integer fen, raw enum values.
// Only fields the views name are copied, so nothing else (a key, a sealed blob) can ride along.
import type { CategoryView, PricePoint, ProductView, SearchResult, SyncProgressView, SyncStatus, TemplateView } from '../../shared/ipc/views/catalog';
import type { AccountView } from '../../shared/ipc/views/connection';
import type { MaskedCardView } from '../../shared/ipc/views/vault';
import type { WebhookHealthView } from '../../shared/ipc/views/webhooks';
import type { Account } from '../../shared/merchant/account';
import type { PurchaseTemplate } from '../../shared/merchant/template';
import type { CachedCategory, CachedProduct } from '../catalog/catalog-reader';
import type { PriceHistoryEntry } from '../catalog/catalog-repository';
import type { ProductSearchResult } from '../catalog/catalog-search';
import { detailState } from '../catalog/detail-state';
import type { SyncFailure, SyncState } from '../catalog/sync-state';
import type { WebhookHealth } from '../webhooks/webhook-health';
import type { MaskedCard } from '../vault/vault-reader';

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.floor(ms / 1000));

/** `readAt`: when the answer arrived (Unix seconds, core clock). */
export function toAccountView(account: Account, readAt: number): AccountView {
  return {
    accountRef: account.accountRef,
    userId: account.userId,
    nickname: account.nickname,
    accessState: account.accessState,
    balanceFen: account.balance,
    currency: account.currency,
    readAt,
  };
}

export function toCategoryView(category: CachedCategory): CategoryView {
  return { catalogRef: category.catalogRef, name: category.name, parentRef: category.parentRef, productCount: category.productCount };
}

export function toSearchResult(result: ProductSearchResult): SearchResult {
  return {
    total: result.total,
    totalIsLowerBound: result.totalIsLowerBound,
    items: result.items.map((hit) => ({
      productRef: hit.productRef,
      catalogRef: hit.catalogRef,
      name: hit.name,
      productType: hit.productType,
      availability: hit.availability,
      brandName: hit.brandName,
      imageUrl: hit.imageUrl,
      priceFromFen: hit.priceFromFen,
      variantCount: hit.variantCount,
      inStock: hit.inStock,
      detailState: hit.detailState,
    })),
  };
}

export function toProductView(product: CachedProduct, watched: boolean, syncedAt: number | null): ProductView {
  return {
    productRef: product.productRef,
    catalogRef: product.catalogRef,
    name: product.name,
    productType: product.productType,
    description: product.description,
    imageUrl: product.imageUrl,
    availability: product.availability,
    brand: product.brand === null ? null : { brandRef: product.brand.brandRef, name: product.brand.name, imageUrl: product.brand.imageUrl },
    variants: product.variants.map((v) => ({
      variantRef: v.variantRef,
      title: v.title,
      priceFen: v.priceFen,
      faceValueFen: v.faceValueFen,
      availability: v.availability,
      inventoryType: v.inventoryType,
      remainingUnits: v.remainingUnits,
    })),
    watched,
    syncedAt,
    detailState: detailState(product.revision, product.listedRevision),
    priceFromFen: product.priceFromFen,
    variantCount: product.revision === null ? (product.listedVariantCount ?? 0) : product.variants.length,
    removed: product.removedAt !== null,
  };
}

export function toPricePoint(entry: PriceHistoryEntry): PricePoint {
  return { priceFen: entry.priceFen, remainingUnits: entry.remainingUnits, availability: entry.availability, recordedAt: entry.recordedAt };
}

export function toTemplateView(template: PurchaseTemplate): TemplateView {
  return {
    productRef: template.productRef,
    variantRef: template.variantRef,
    productType: template.productType,
    purchaseSchemaRevision: template.purchaseSchemaRevision,
    entryMode: template.entryMode,
    purchaseFields: template.purchaseFields.map((f) => ({
      fieldRef: f.fieldRef,
      label: f.label,
      type: f.type,
      required: f.required,
      pattern: f.pattern,
      minLength: f.minLength,
      maxLength: f.maxLength,
      options: f.options === null ? null : f.options.map((o) => ({ value: o.value, label: o.label })),
      placeholder: f.placeholder,
      sensitive: f.sensitive,
    })),
    unitRule: { min: template.unitRule.min, max: template.unitRule.max, step: template.unitRule.step },
  };
}

export function toMaskedCardView(card: MaskedCard): MaskedCardView {
  return {
    seq: card.seq,
    cardNoMasked: card.cardNoMasked,
    hasPassword: card.hasPassword,
    expiresAt: card.expiresAt,
    receivedAt: card.receivedAt,
    usedAt: card.usedAt,
    exportedAt: card.exportedAt,
  };
}

/**
 * `live` is what this process knows of a running sync; the stored state covers earlier runs. The last
 * success survives failures and new runs; a failure is shown only while no run goes on.
 */
export function toSyncStatus(
  stored: SyncState | null,
  live: { running: boolean; progress: SyncProgressView | null; failure: SyncFailure | null },
  products: number,
): SyncStatus {
  return {
    running: live.running,
    phase: live.running ? (live.progress?.phase ?? null) : (stored?.phase ?? null),
    lastSyncedAt: stored?.lastSuccessAt ?? null,
    failure: live.running ? null : (live.failure ?? stored?.failure ?? null),
    progress: live.running ? live.progress : null,
    products,
  };
}

/** Without a webhook service (polling only), or before it is attached. */
export function pollingOnlyHealth(tunnelKind: string | null): WebhookHealthView {
  return {
    mode: 'polling',
    receiverUp: false,
    tunnelKind,
    tunnelUp: false,
    callbackUrl: null,
    lastEventAt: null,
    received: 0,
    duplicates: 0,
    rejected: 0,
    webhooksLive: false,
    ordersPolledElsewhere: 0,
  };
}

/** `ordersPolledElsewhere`: see callback-reach.ts (counted by the caller, which has the database). */
export function toWebhookHealthView(health: WebhookHealth, ordersPolledElsewhere: number): WebhookHealthView {
  return {
    mode: 'webhooks',
    receiverUp: health.receiver.up,
    tunnelKind: health.tunnel.kind,
    tunnelUp: health.tunnel.up,
    callbackUrl: health.callbackUrl,
    // The merchant's events only, as `received` counts them: a probe's time beside "0 received" would contradict it.
    lastEventAt: seconds(health.lastMerchantEventAt),
    received: health.events.received,
    duplicates: health.events.duplicates,
    rejected: health.events.rejected,
    webhooksLive: health.webhooksLive,
    ordersPolledElsewhere,
  };
}
