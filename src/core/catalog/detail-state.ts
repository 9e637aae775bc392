// How much of a product the cache holds (shared/ipc/views/catalog.ts DETAIL_STATES), decided from the
// revision of the stored detail (null: none stored) and the revision the catalog list last named.
// Search hits, the product view and catalog.openProduct's "is a fetch needed" read it from here.
import type { DetailState } from '../../shared/ipc/views/catalog';

export function detailState(revision: number | null, listedRevision: number | null): DetailState {
  if (revision === null) return 'listOnly';
  return listedRevision !== null && listedRevision > revision ? 'stale' : 'stored';
}
