// The persisted progress of a full catalog sync (table catalog_sync_state, one row). The list phase
// records the page reached; the detail and template phases need no cursor because their remaining work is
// read from the data itself (products needing a detail, variants needing a template). The row also
// keeps the last successful sync's time (through failures and new runs) and, structured, why the
// last run did not finish.
import type { SyncFailureView } from '../../shared/ipc/views/catalog';

const SYNC_PHASES = ['list', 'details', 'templates', 'done'] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];

/**
 * Before issue 15 the list was two phases, 'categories' then 'pages'; a row an older build left mid-run
 * resumes as 'list' (its next_page is still the first page not stored). A phase this build does not
 * know at all (a newer build wrote it) reads as a finished sync: the next one starts over.
 */
const OLD_PHASES: Readonly<Record<string, SyncPhase>> = { categories: 'list', pages: 'list' };

export function syncPhaseOf(stored: string): SyncPhase {
  const known = SYNC_PHASES.find((phase) => phase === stored);
  return known ?? OLD_PHASES[stored] ?? 'done';
}

/** The view's shape is the stored one: codes and references, never a message. */
export type SyncFailure = SyncFailureView;

export interface SyncState {
  readonly phase: SyncPhase;
  /** List phase: every catalog page below this one is stored. */
  readonly nextPage: number;
  readonly itemsDone: number;
  readonly itemsTotal: number | null;
  /** Unix seconds (client clock) when this full sync began; products not listed since are removed at the end. */
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
  /** Unix seconds when the last sync that ran to its end finished; a new or failed run keeps it. */
  readonly lastSuccessAt: number | null;
  readonly failure: SyncFailure | null;
}
