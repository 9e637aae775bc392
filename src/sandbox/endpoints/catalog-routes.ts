// Catalog, product detail, purchase template and subscriptions (contract §3 to 6).
import type { Product } from '../domain/catalog-types';
import { catalogItem, productDetail, templateToWire } from '../domain/catalog-wire';
import { isAllowedCallbackUrl } from '../domain/url-rules';
import { ApiError } from '../http/api-error';
import { paginate } from '../http/envelope';
import { optionalString, parseRef, queryRef, readPaging } from '../http/input-readers';
import type { Route, RouteContext } from './route';
import { param } from './route';

const MAX_SUBSCRIPTION_BATCH = 100;

function visibleProduct(context: RouteContext, productRef: number): Product {
  const product = context.merchant.ctx.catalog.product(productRef);
  if (!product) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such product');
  return product;
}

function listCatalog(context: RouteContext): unknown {
  const { catalog, subscriptions, clock } = context.merchant.ctx;
  const { page, pageSize } = readPaging(context.query);
  const catalogRef = queryRef(context.query, 'catalogRef');
  const subscriptionFilter = context.query.get('subscriptionState');
  if (subscriptionFilter !== null && subscriptionFilter !== '' && subscriptionFilter !== 'subscribed') {
    throw new ApiError('INVALID_ARGUMENT', 'subscriptionState only takes "subscribed"');
  }
  if (catalogRef !== null && !catalog.category(catalogRef)) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such category');
  const family = catalogRef === null ? null : catalog.categoryFamily(catalogRef);
  const now = clock.nowSeconds();
  const accountRef = context.account.accountRef;
  const items = catalog.products.filter(
    (p) => (family === null || family.has(p.catalogRef)) && (subscriptionFilter !== 'subscribed' || subscriptions.active(accountRef, p.productRef, now) !== null),
  );
  return paginate(items, page, pageSize, (p) => catalogItem(p, subscriptions.state(accountRef, p.productRef, now)));
}

function readTemplate(context: RouteContext): unknown {
  const productRef = queryRef(context.query, 'productRef');
  if (productRef === null) throw new ApiError('INVALID_ARGUMENT', 'productRef is required');
  const variantRef = queryRef(context.query, 'variantRef', 0);
  const product = visibleProduct(context, productRef);
  const single = product.variants.length === 1 && product.variants[0]?.variantRef === 0;
  if (!single && (variantRef === null || variantRef === 0)) throw new ApiError('INVALID_ARGUMENT', 'variantRef is required for a multi-variant product');
  const variant = product.variants.find((v) => v.variantRef === (variantRef ?? 0));
  if (!variant) throw new ApiError('RESOURCE_NOT_VISIBLE', 'no such variant');
  return templateToWire(product, variant);
}

function changeSubscriptions(context: RouteContext): unknown {
  const { catalog, subscriptions, clock, settings } = context.merchant.ctx;
  const refs = context.body['productRefs'];
  if (!Array.isArray(refs) || refs.length === 0 || refs.length > MAX_SUBSCRIPTION_BATCH || !refs.every((r): r is number => Number.isSafeInteger(r) && (r as number) > 0)) {
    throw new ApiError('INVALID_ARGUMENT', `productRefs must be 1 to ${MAX_SUBSCRIPTION_BATCH} product references`);
  }
  const state = context.body['subscriptionState'];
  if (state !== 'subscribed' && state !== 'unsubscribed') throw new ApiError('INVALID_ARGUMENT', 'subscriptionState must be "subscribed" or "unsubscribed"');
  const callbackUrl = optionalString(context.body, 'callbackUrl', { max: 65_536 });
  if (callbackUrl !== null && !isAllowedCallbackUrl(callbackUrl, settings.callbackPolicy)) {
    throw new ApiError('ORDER_CALLBACK_URL_INVALID', 'callbackUrl must be a public HTTPS URL');
  }
  const unique = [...new Set(refs)];
  if (unique.length !== refs.length) throw new ApiError('INVALID_ARGUMENT', 'productRefs must not repeat a product');
  // All or nothing: one unknown product changes nothing.
  if (unique.some((ref) => !catalog.product(ref))) throw new ApiError('RESOURCE_NOT_VISIBLE', 'a product in productRefs is not visible');
  const now = clock.nowSeconds();
  const accountRef = context.account.accountRef;
  return {
    list: unique.map((productRef) => {
      if (state === 'subscribed') subscriptions.subscribe(accountRef, productRef, callbackUrl, now);
      else subscriptions.unsubscribe(accountRef, productRef);
      const current = subscriptions.state(accountRef, productRef, now);
      return { productRef, subscriptionState: current.state, subscriptionExpiresAt: current.expiresAt };
    }),
  };
}

export const catalogRoutes: Route[] = [
  { method: 'GET', pattern: /^\/goods\/catalog$/, group: 'catalog', handle: listCatalog },
  { method: 'GET', pattern: /^\/goods\/tpl$/, group: 'catalog', handle: readTemplate },
  // Any other segment is a productRef, so that one of the wrong type is 400002 rather than "no such endpoint".
  { method: 'GET', pattern: /^\/goods\/(?!catalog$|tpl$|subscriptions$)([^/]+)$/, group: 'catalog', handle: (c) => productDetail(visibleProduct(c, parseRef(param(c, 0), 'productRef'))) },
  { method: 'POST', pattern: /^\/goods\/subscriptions$/, group: 'subscriptions', handle: changeSubscriptions },
];
