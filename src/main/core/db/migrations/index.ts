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
import { merchantTrustMigration } from './0013-merchant-trust';
import { orderDraftsMigration } from './0014-order-drafts';

// MERGE NOTE (branch i11-merchant): id 12 belongs to a migration of another branch. Until it is
// merged, this empty placeholder keeps the ids consecutive; the merge replaces it with the real
// migration (nothing else refers to it).
const reservedMigration = (id: number): Migration => ({ id, name: `reserved-${id}`, sql: 'SELECT 1;' });

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
  reservedMigration(12),
  merchantTrustMigration,
  orderDraftsMigration,
];
