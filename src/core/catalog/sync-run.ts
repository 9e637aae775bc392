// One catalog sync run as its phases share it (catalog-sync.ts drives them): its dependencies, where it
// stands (saved with each step, so a crash resumes there), the work each phase counted, and the one
// function that tells the listener where the whole run stands.
import { SYNC_WORK_PHASES, type SyncProgressView, type SyncWorkPhase, type TemplateScope } from '../../shared/ipc/views/catalog';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import type { MerchantClient } from '../merchant/merchant-client';
import { MerchantApiError } from '../merchant/merchant-errors';
import type { Clock } from '../platform/clock';
import type { CatalogRepository } from './catalog-repository';
import type { EtaTracker } from './sync-eta';
import { nextFraction, phaseIndexOf, remainingRequests, type PhaseWork, type SyncWork } from './sync-progress';
import type { SyncState } from './sync-state';

export type CatalogClient = Pick<MerchantClient, 'listCategories' | 'listCatalog' | 'getProduct' | 'getTemplate'>;

/** A work phase's progress, or 'done' with the whole run's (see shared/ipc/views/catalog.ts). */
export type SyncProgress = SyncProgressView & { readonly phase: SyncWorkPhase | 'done' };

/** At most this many fetched items, or this much client time, between two commits (see write-batcher). */
export const WRITE_BATCH = { maxItems: 25, maxAgeMs: 2000 };

/** RESOURCE_NOT_VISIBLE: the product or variant went away between the list and this request. */
export function isNotVisible(error: unknown): boolean {
  return error instanceof MerchantApiError && error.code === MERCHANT_ERROR.RESOURCE_NOT_VISIBLE;
}

export interface SyncCounts {
  categories: number;
  pagesFetched: number;
  detailsFetched: number;
  /** Details the buyer's own fetch stored while this sync waited to ask: not asked again. */
  detailsAlreadyStored: number;
  staleDetails: number;
  templatesFetched: number;
  removedProducts: number;
}

export interface SyncRun {
  readonly repo: CatalogRepository;
  readonly client: CatalogClient;
  readonly clock: Clock;
  readonly signal: AbortSignal | undefined;
  readonly concurrency: number;
  readonly pageSize: number;
  readonly templateScope: TemplateScope;
  /** The catalogRef the buyer is looking at now, if any (details of that category go first). */
  readonly focus: () => number | null;
  emit(progress: SyncProgress): void;
  /** Each phase's requests, done and known (or bounded) so far; the fraction shown; the pace. */
  work: SyncWork;
  fraction: number | null;
  readonly eta: EtaTracker;
  /** variantCount of each product listed by this run's pages (null when this run did not page from 1): bounds the templates. */
  listedVariants: Map<number, number> | null;
  /** Where the sync stands; `save` also writes it, so a crash resumes from there. */
  state: SyncState;
  save(next: SyncState): void;
  /** The summary's counts, added to by each phase. */
  readonly counts: SyncCounts;
}

/**
 * Records a phase's work (and, when `answered`, one more answered request for the pace) and tells
 * the listener where the whole run stands.
 */
export function report(run: SyncRun, phase: SyncWorkPhase, work: Partial<PhaseWork>, answered: boolean): void {
  const now = run.clock.nowMs();
  run.work = { ...run.work, [phase]: { ...run.work[phase], ...work } };
  if (answered) run.eta.answered(now);
  run.fraction = nextFraction(run.fraction, run.work);
  const { done, total } = run.work[phase];
  run.emit({
    phase,
    phaseIndex: phaseIndexOf(phase),
    phaseCount: SYNC_WORK_PHASES.length,
    done,
    total,
    fraction: run.fraction,
    etaMs: run.eta.estimate(now, remainingRequests(run.work)),
    templateScope: run.templateScope,
  });
}
