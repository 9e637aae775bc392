// How much of a product the cache holds (shared/ipc/views/catalog.ts DETAIL_STATES), decided from the
// revision of the stored detail (null: none stored) and the revision the catalog list last named.
// Search hits, the product view and catalog.openProduct's "is a fetch needed" read it from here, and
// how old a stored reading may be before a buyer who opens the product is shown it again (contract §11.2).
import type { DetailState } from '../../shared/ipc/views/catalog';
import { DETAIL_FRESH_FOR_S } from '../../shared/ipc/views/catalog';

export function detailState(revision: number | null, listedRevision: number | null): DetailState {
  if (revision === null) return 'listOnly';
  return listedRevision !== null && listedRevision > revision ? 'stale' : 'stored';
}

/**
 * A stored detail read longer ago than DETAIL_FRESH_FOR_S: the merchant may have moved its price or
 * stock without a revision the list or a webhook told us of, so a buyer opening it (drawer, order form)
 * gets it read again before deciding on it.
 */
export function readingIsOld(syncedAtS: number, nowS: number): boolean {
  return nowS - syncedAtS > DETAIL_FRESH_FOR_S;
}
