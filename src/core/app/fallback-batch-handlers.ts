// batch.preview and batch.place over the desk (contract §15.4, "applied by the batch"): a batch for a
// variant in a link whose rule the buyer set goes to the rule's choice when the merchant it was meant
// for cannot supply it (or asks above the rule's limit), at that merchant's own product and variant
// and its current price, never above the limit; the answer says so (`fallback`). Without a rule, or
// when the merchant can supply within the limit, the call goes to its profile as it came. The batch
// itself is the chosen profile's (its status, retry and export follow its batchId there); the desk
// remembers the fallback (desk 0002 batch_fallbacks) so that batch.status keeps saying so.
import type { Database } from 'better-sqlite3';
import type { BatchFallbackView, BatchPreviewView, BatchStatusView } from '../../shared/ipc/views/batch';
import type { VariantKey } from '../../shared/ipc/views/compare';
import { batchFallback, recordBatchFallback } from '../desk/batch-fallback-store';
import { fallbackOffers } from '../desk/fallback-offers';
import { formatYuan } from '../../shared/money';
import { deskCatalogs, profileEntry } from './compare-handlers';
import type { DeskServiceState, ProfileEntry } from './desk-service';
import { AppFailure } from './error-mapping';
import type { HandlerInput, HandlersFor } from './handler-types';
import { holds } from './profile-routing';

interface BatchPlan {
  readonly target: ProfileEntry;
  readonly productRef: number;
  readonly variantRef: number;
  readonly fallback: BatchFallbackView | null;
  /** The current merchant publishes a count: the file's units may be more than it has. */
  readonly counted: boolean;
  readonly ruled: boolean;
}

const REASON_WORDS = { outOfStock: 'is out of stock', unavailable: 'cannot supply it now', notEnoughStock: 'has fewer units than the batch asks', aboveLimit: 'asks more than the limit' } as const;

/** The input as a profile's own service takes it: the desk's routing field off. */
function withoutProfile<T extends { profileId?: string | undefined }>(input: T): Omit<T, 'profileId'> {
  const copy = { ...input };
  delete copy.profileId;
  return copy;
}

function draftHolder(db: Database, draftRef: string): { productRef: number; variantRef: number } | null {
  const row = db.prepare<[string], { product_ref: number; variant_ref: number }>('SELECT product_ref, variant_ref FROM batches WHERE draft_ref = ?').get(draftRef);
  return row === undefined ? null : { productRef: row.product_ref, variantRef: row.variant_ref };
}

export function fallbackBatchHandlers(state: DeskServiceState): HandlersFor<'batch.preview' | 'batch.place' | 'batch.status'> {
  const catalogs = deskCatalogs(state);
  const deskDb = state.desk.db;
  const nameOf = (profileId: string): string | null => state.desk.profiles.find(profileId)?.name ?? null;
  /** The status as its profile answers it, with the fallback that sent the batch there (if one did). */
  const withFallback = (status: BatchStatusView): BatchStatusView => {
    const fallback = batchFallback(deskDb, status.batchId, nameOf);
    return fallback === null ? status : { ...status, fallback };
  };

  const currentKey = async (input: { profileId?: string | undefined; productRef: number; variantRef: number }): Promise<VariantKey> => {
    const profileId = input.profileId ?? (await state.active()).profile.record.id;
    return { profileId, productRef: input.productRef, variantRef: input.variantRef };
  };

  /** Where the batch goes for these units: its own merchant, or the rule's choice (refused when the rule finds none). */
  const plan = async (key: VariantKey, units: number): Promise<BatchPlan> => {
    const current = await profileEntry(state, key.profileId);
    const { offers, decision } = await fallbackOffers(state.desk.links, catalogs, key, units);
    const rule = offers.link?.rule ?? null;
    const stay: BatchPlan = { target: current, productRef: key.productRef, variantRef: key.variantRef, fallback: null, counted: offers.current.remainingUnits !== null, ruled: rule !== null };
    if (rule === null || decision.reason === null) return stay;
    const choice = decision.choice;
    if (choice === null) {
      throw new AppFailure(
        'ACTION_NOT_ALLOWED',
        `${current.tag().name} ${REASON_WORDS[decision.reason]}, and no merchant of the link's fallback rule can supply ${units} unit(s) at or below ¥${formatYuan(rule.maxUnitPriceFen)}: nothing was placed`,
      );
    }
    const target = await profileEntry(state, choice.key.profileId);
    const fallback: BatchFallbackView = { from: current.tag(), to: target.tag(), reason: decision.reason, limitFen: rule.maxUnitPriceFen, productRef: choice.key.productRef, variantRef: choice.key.variantRef };
    return { target, productRef: choice.key.productRef, variantRef: choice.key.variantRef, fallback, counted: offers.current.remainingUnits !== null, ruled: true };
  };

  /** The plan for the file's units: decided for one unit, again for the file's total where the merchant counts its stock. */
  const planFor = async (key: VariantKey, input: HandlerInput<'batch.preview'>): Promise<{ plan: BatchPlan; view: BatchPreviewView | null }> => {
    const first = await plan(key, 1);
    if (first.fallback !== null || !first.ruled || !first.counted) return { plan: first, view: null };
    const view = await first.target.ask<BatchPreviewView>('batch.preview', previewInput(input, first));
    if (view.totals.units <= 1) return { plan: first, view };
    const again = await plan(key, view.totals.units);
    return { plan: again, view: again.fallback === null ? view : null };
  };

  const previewInput = (input: HandlerInput<'batch.preview'>, at: BatchPlan): Omit<HandlerInput<'batch.preview'>, 'profileId'> => {
    return { ...withoutProfile(input), productRef: at.productRef, variantRef: at.variantRef };
  };

  return {
    'batch.preview': async (input) => {
      const { plan: chosen, view } = await planFor(await currentKey(input), input);
      const answer = view ?? (await chosen.target.ask<BatchPreviewView>('batch.preview', previewInput(input, chosen)));
      return chosen.fallback === null ? answer : { ...answer, fallback: chosen.fallback };
    },

    'batch.place': async (input) => {
      const key = await currentKey(input);
      const rest = withoutProfile(input);
      // The same confirmation placed again answers the batch it made, wherever the rule sent it then.
      for (const record of state.desk.profiles.list()) {
        const entry = await state.entry(record.id);
        const held = draftHolder(entry.profile.core.db, input.draftRef);
        if (held !== null) return withFallback(await entry.ask<BatchStatusView>('batch.place', { ...rest, ...held }));
      }
      const { plan: chosen } = await planFor(key, input);
      if (chosen.fallback !== null && input.unitPriceFen > chosen.fallback.limitFen) {
        throw new AppFailure('ACTION_NOT_ALLOWED', `the confirmed unit price ¥${formatYuan(input.unitPriceFen)} is above the fallback rule's limit ¥${formatYuan(chosen.fallback.limitFen)}: nothing was placed`);
      }
      const status = await chosen.target.ask<BatchStatusView>('batch.place', { ...rest, productRef: chosen.productRef, variantRef: chosen.variantRef });
      if (chosen.fallback !== null) recordBatchFallback(deskDb, status.batchId, chosen.fallback, Math.floor(Date.now() / 1000));
      return withFallback(status);
    },

    'batch.status': async ({ batchId }) => {
      // The batch's owner (our batch ids are random, so one profile at most holds it), else the active profile says it has none.
      for (const record of state.desk.profiles.list()) {
        const entry = await state.entry(record.id);
        if (holds(entry.profile.core.db, { kind: 'batch', ref: batchId })) return withFallback(await entry.ask<BatchStatusView>('batch.status', { batchId }));
      }
      return (await state.active()).ask<BatchStatusView>('batch.status', { batchId });
    },
  };
}
