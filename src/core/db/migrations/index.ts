// Every migration this build ships, in application order. Append only: a schema change is a new
// file with the next id, never an edit of one that may already be applied somewhere.
import type { Migration } from '../migration';
import { catalogMigration } from './0001-catalog';
import { ordersMigration } from './0002-orders';
import { vaultMigration } from './0003-vault';
import { settingsAndEventsMigration } from './0004-settings-and-events';
import { productStockSummaryMigration } from './0005-product-stock-summary';
import { aftersaleCacheAndInboxRetryMigration } from './0006-aftersale-cache-and-inbox-retry';
import { watchedProductsMigration } from './0007-watched-products';
import { productSearchPriceMigration } from './0008-product-search-price';
import { aftersaleOutboxAndReadsMigration } from './0009-aftersale-outbox-and-reads';
import { orderPriceGuardMigration } from './0010-order-price-guard';
import { orderStateHistoryMigration } from './0011-order-state-history';
import { orderAccessParksMigration } from './0012-order-access-parks';
import { merchantTrustMigration } from './0013-merchant-trust';
import { orderDraftsMigration } from './0014-order-drafts';
import { catalogSyncOutcomeMigration } from './0015-catalog-sync-outcome';
import { listedVariantCountMigration } from './0016-listed-variant-count';
import { orderNeedsTemplateMigration } from './0017-order-needs-template';
import { balanceHistoryMigration } from './0018-balance-history';
import { reconciliationMigration } from './0019-reconciliation';
import { batchOrdersMigration } from './0020-batch-orders';
import { chargedAmountsMigration } from './0021-charged-amounts';
import { orderServerFailuresMigration } from './0022-order-server-failures';
import { searchSpellingMigration } from './0023-search-spelling';

export const migrations: readonly Migration[] = [
  catalogMigration,
  ordersMigration,
  vaultMigration,
  settingsAndEventsMigration,
  productStockSummaryMigration,
  aftersaleCacheAndInboxRetryMigration,
  watchedProductsMigration,
  productSearchPriceMigration,
  aftersaleOutboxAndReadsMigration,
  orderPriceGuardMigration,
  orderStateHistoryMigration,
  orderAccessParksMigration,
  merchantTrustMigration,
  orderDraftsMigration,
  catalogSyncOutcomeMigration,
  listedVariantCountMigration,
  orderNeedsTemplateMigration,
  balanceHistoryMigration,
  reconciliationMigration,
  batchOrdersMigration,
  chargedAmountsMigration,
  orderServerFailuresMigration,
  searchSpellingMigration,
];
