// POST /orders/create (interface v1 §4.2, contract §7.1): idempotent by clientOrderRef, every check before the
// charge, and nothing stored for a rejected request so that the same reference can be sent again.
import { ApiError } from '../http/api-error';
import { CLIENT_REF, optionalInt, optionalString, requireInt, requireString } from '../http/input-readers';
import type { JsonObject } from '../http/request-body';
import type { Account } from './account-store';
import type { Product, Variant } from './catalog-types';
import type { MerchantContext } from './merchant-context';
import type { OrderBook } from './order-book';
import type { OrderLifecycle } from './order-lifecycle';
import type { Order } from './order-records';
import { canonicalEntries, checkEntries, checkUnits, readEntryGroups } from './purchase-validation';
import { isAllowedCallbackUrl, isPublicImageUrl } from './url-rules';

/**
 * The merchant's limit on one order's amount (10,000 yuan), as real merchants' risk control has. It is
 * the sandbox's one rule without a more specific code, so it is how ORDER_CREATE_REJECTED (interface v1 §7.3
 * 422100) can be reached; no normal order (seeded prices, default balance) comes near it.
 */
export const MAX_ORDER_TOTAL_FEN = 1_000_000;

function pickVariant(product: Product, variantRef: number | null): Variant {
  const single = product.variants.length === 1 && product.variants[0]?.variantRef === 0;
  if (!single && (variantRef === null || variantRef === 0)) {
    throw new ApiError('INVALID_ARGUMENT', 'variantRef is required for a multi-variant product');
  }
  const variant = product.variants.find((v) => v.variantRef === (variantRef ?? 0));
  if (!variant) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such variant');
  return variant;
}

export class OrderCreation {
  constructor(
    private readonly ctx: MerchantContext,
    private readonly book: OrderBook,
    private readonly lifecycle: OrderLifecycle,
  ) {}

  create(account: Account, body: JsonObject): Order {
    const clientOrderRef = requireString(body, 'clientOrderRef', { max: 64, pattern: CLIENT_REF });
    const productRef = requireInt(body, 'productRef', 1);
    const variantRef = optionalInt(body, 'variantRef');
    // Any integer is well-formed; whether it is allowed is the template's unitRule (422110).
    const units = requireInt(body, 'units', Number.MIN_SAFE_INTEGER);
    const schemaRevision = optionalInt(body, 'purchaseSchemaRevision');
    const groups = readEntryGroups(body['purchaseEntries']);
    // Over-long addresses are the address's fault (422112/422114), not a malformed body.
    const orderCallbackUrl = optionalString(body, 'orderCallbackUrl', { max: 65_536 });
    const imageUrl = optionalString(body, 'imageUrl', { max: 65_536 });

    const contentKey = JSON.stringify([productRef, variantRef ?? 0, units, canonicalEntries(groups), schemaRevision]);
    const existing = this.book.find(account.accountRef, clientOrderRef);
    if (existing) {
      if (existing.contentKey !== contentKey) throw new ApiError('IDEMPOTENCY_CONFLICT', 'clientOrderRef was used with different content');
      return existing;
    }

    const product = this.ctx.catalog.product(productRef);
    if (!product) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such product');
    const variant = pickVariant(product, variantRef);
    if (product.availability !== 'available' || variant.availability !== 'available') {
      throw new ApiError('PRODUCT_UNAVAILABLE', 'the product or variant is not purchasable');
    }
    if (product.productType === 'topup') {
      if (schemaRevision === null) throw new ApiError('INVALID_ARGUMENT', 'purchaseSchemaRevision is required for top-up products');
      if (schemaRevision !== variant.template.purchaseSchemaRevision) {
        throw new ApiError('PURCHASE_SCHEMA_CHANGED', 'the purchase template changed; fetch /goods/tpl again');
      }
    }
    checkUnits(variant.template, units);
    checkEntries(variant.template, units, groups);
    if (imageUrl !== null && !isPublicImageUrl(imageUrl)) {
      throw new ApiError('IMAGE_URL_INVALID', 'imageUrl must be a public HTTPS image URL of at most 2048 characters');
    }
    if (orderCallbackUrl !== null && !isAllowedCallbackUrl(orderCallbackUrl, this.ctx.settings.callbackPolicy)) {
      throw new ApiError('ORDER_CALLBACK_URL_INVALID', 'orderCallbackUrl must be a public HTTPS URL');
    }
    if (variant.remainingUnits !== null && variant.remainingUnits < units) {
      throw new ApiError('INVENTORY_UNAVAILABLE', 'not enough stock for now');
    }
    const totalFen = variant.priceFen * units;
    if (account.balanceFen < totalFen) throw new ApiError('BALANCE_INSUFFICIENT', 'the available balance is too small');
    // After the balance: a balance too small is always BALANCE_INSUFFICIENT, however large the order.
    if (totalFen > MAX_ORDER_TOTAL_FEN) throw new ApiError('ORDER_CREATE_REJECTED', 'the order amount exceeds the merchant limit of 10000 yuan per order');

    const now = this.ctx.clock.nowSeconds();
    const order: Order = {
      accountRef: account.accountRef,
      clientOrderRef,
      platformOrderRef: this.book.nextPlatformRef(now),
      productRef,
      variantRef: variant.variantRef,
      productName: product.name,
      variantTitle: variant.title,
      productType: product.productType,
      units,
      unitPriceFen: variant.priceFen,
      totalFen,
      contentKey,
      entryCount: groups.length,
      orderCallbackUrl,
      imageUrl,
      state: 'pending',
      revision: 1,
      failureReason: null,
      verificationHint: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      refundedFen: 0,
      refunds: [],
      cards: null,
      supply: variant.supply,
      wrongCode: false,
      codeAccepted: false,
      openCase: false,
      timer: null,
    };
    this.book.add(order);
    this.ctx.accounts.charge(account, clientOrderRef, totalFen, now);
    // Interface v1 §3.2: a successful order creates or renews the product's subscription, bound to its address.
    this.ctx.subscriptions.subscribe(account.accountRef, productRef, orderCallbackUrl, now);
    this.ctx.catalog.moveStock(product, variant.variantRef, -units);
    this.lifecycle.scheduleNext(order);
    return order;
  }
}
