// The sync's details phase: the detail of every product whose stored one is missing or older than the
// list says (a changed revision fetches that product's detail alone), in the order the buyer will need
// them (detail-order.ts), re-ranked before each request so a change of focus mid-sync is followed, and
// skipping a product the buyer's own fetch stored meanwhile. Fetched details are applied in batches
// (write-batcher.ts); what was fetched is kept on failure or abort, so a resumed sync does not ask again.
import type { ProductDetail } from '../../shared/merchant/catalog';
import { runBoundedFrom } from '../platform/bounded-pool';
import { createDetailQueue } from './detail-order';
import { isNotVisible, report, WRITE_BATCH, type SyncRun } from './sync-run';
import { createWriteBatcher } from './write-batcher';

/**
 * At most this many templates are needed after the details: the variants needing one now, and every
 * variant the list announced for a product whose detail is still to come and for which a template may
 * be wanted (all of them under scope 'all'). Null without the list's counts.
 */
function templatesBound(run: SyncRun, refs: readonly number[]): number | null {
  const listed = run.listedVariants;
  if (listed === null) return null;
  const interest = run.templateScope === 'all' ? null : run.repo.templateInterest();
  let bound = run.repo.variantsNeedingTemplate(run.templateScope).length;
  for (const ref of refs) {
    const count = listed.get(ref);
    if (count === undefined) return null;
    if (interest === null || interest.has(ref)) bound += count;
  }
  return bound;
}

export async function syncDetails(run: SyncRun): Promise<void> {
  const { repo, client, clock, signal } = run;
  const candidates = repo.detailCandidates();
  const refs = candidates.map((candidate) => candidate.productRef);
  let done = 0;
  run.work = { ...run.work, templates: { done: 0, total: templatesBound(run, refs) } };
  report(run, 'details', { done, total: refs.length }, false);
  run.save({ ...run.state, itemsDone: 0, itemsTotal: refs.length });
  const batch = createWriteBatcher<ProductDetail>(
    (details) => {
      const outcomes = repo.applyProductSnapshots(details.map((detail) => ({ from: 'detail', detail })));
      run.counts.staleDetails += outcomes.filter((outcome) => outcome.kind === 'stale').length;
    },
    { ...WRITE_BATCH, nowMs: () => clock.nowMs() },
  );
  const queue = createDetailQueue(candidates, {
    focus: run.focus,
    // Each candidate is taken once, so this run's own unflushed details never come back here; what
    // the database shows stored is the buyer's fetch (or a webhook's catch-up).
    stillNeeded: (productRef) => repo.needsDetail(productRef),
    onSkip: () => {
      run.counts.detailsAlreadyStored += 1;
      done += 1;
      report(run, 'details', { done }, false);
    },
  });
  try {
    await runBoundedFrom(
      () => queue.next(),
      async (productRef) => {
        try {
          const { data } = await client.getProduct(productRef, signal);
          batch.add(data);
          run.counts.detailsFetched += 1;
        } catch (error) {
          if (!isNotVisible(error)) throw error;
          repo.markProductRemoved(productRef);
          run.counts.removedProducts += 1;
        }
        done += 1;
        report(run, 'details', { done }, true);
      },
      { concurrency: run.concurrency, signal },
    );
  } finally {
    // Also on failure or abort: what was fetched is kept, so a resumed sync does not ask again.
    batch.flush();
  }
  run.save({ ...run.state, phase: 'templates', itemsDone: 0, itemsTotal: null });
}
