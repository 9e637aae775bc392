// Query keys, by domain: a pushed event invalidates a whole prefix (['orders'], ['catalog'], …).
import type { SearchQuery } from '../../../shared/ipc/views/catalog';

export const keys = {
  connection: ['connection'] as const,
  account: ['account'] as const,
  catalog: ['catalog'] as const,
  categories: ['catalog', 'categories'] as const,
  syncStatus: ['catalog', 'syncStatus'] as const,
  searchPage: (query: SearchQuery) => ['catalog', 'search', query] as const,
  product: (productRef: number) => ['catalog', 'product', productRef] as const,
  openProduct: (productRef: number) => ['catalog', 'openProduct', productRef] as const,
  priceHistory: (productRef: number, variantRef: number) => ['catalog', 'priceHistory', productRef, variantRef] as const,
  orders: ['orders'] as const,
  orderList: (filter: { intentStatus?: string; state?: string; profile?: string }) => ['orders', 'list', filter] as const,
  order: (clientOrderRef: string) => ['orders', 'detail', clientOrderRef] as const,
  template: (productRef: number, variantRef: number) => ['template', productRef, variantRef] as const,
  vault: ['vault'] as const,
  vaultKey: ['vaultKey'] as const,
  cards: (clientOrderRef: string) => ['vault', 'cards', clientOrderRef] as const,
  settings: ['settings'] as const,
  ngrokAuthtoken: ['settings', 'ngrokAuthtoken'] as const,
  eventsHealth: ['events', 'health'] as const,
};
