// English words of browsing before the details arrive: catalog rows known only from the list, and the
// product drawer while it loads a detail (contract §11). messages-browse-zh-cn.ts has the same keys.
export const browseEn = {
  'browse.row.listNote': 'prices from the list; details loading',
  'browse.row.stockUnknown': 'Stock not known yet',
  'browse.row.stockUnknownHint': 'Only the catalog list has arrived for this product. Open it to load its variants and stock now.',
  'browse.filter.inStockHint': 'Also shows available products whose stock is not known yet (their details are still loading).',
  'browse.drawer.loading': 'Loading this product’s variants and stock from the merchant…',
  'browse.drawer.fromList': 'From the catalog list: {price} · {variants}',
  'browse.drawer.fromListNoCount': 'From the catalog list: {price}',
  'browse.drawer.unreachable': 'The merchant cannot be reached right now. Details will load when the merchant is reachable; until then you see the catalog list’s data.',
  'browse.drawer.unreachableStale': 'The merchant cannot be reached right now, so these details may be out of date. They update when the merchant is reachable.',
  'browse.drawer.failed': 'The merchant did not send this product’s details.',
  'browse.drawer.retry': 'Try again',
  'browse.drawer.removed': 'The merchant no longer offers this product.',
} as const;
