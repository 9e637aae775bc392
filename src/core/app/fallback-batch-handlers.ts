// batch.preview and batch.place over the desk (contract §15.4, "applied by the batch"): a batch for a
// variant in a link whose rule the buyer set goes to the rule's choice when the merchant it was meant
// for cannot supply it (or asks above the rule's limit), at that merchant's own product and variant
// and its current price, never above the limit; the answer says so (`fallback`). Without a rule, or
// when the merchant can supply within the limit, the call goes to its profile as it came. The batch
// itself is the chosen profile's (its status, retry and export follow its batchId there); the desk
// remembers the fallback (desk 0002 batch_fallbacks) so that batch.status keeps saying so, and the
// results file names the merchant. Issue 24: the preview totals per merchant, and batch.place pays
// another merchant than the batch's own only when the buyer confirmed that one (`payToProfileId`).
import type { Database } from 'better-sqlite3';
import type { BatchFallbackView, BatchPreviewView, BatchStatusView } from '../../shared/ipc/views/batch';
import type { VariantKey } from '../../shared/ipc/views/compare';
import { batchResults } from '../batch/batch-results';
import { batchFallback, recordBatchFallback } from '../desk/batch-fallback-store';
import { merchantShares, NoBatchFallbackError, routeBatch } from '../desk/batch-route';
import { formatYuan } from '../../shared/money';
import { fileOf, readable } from './batch-handlers';
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
}

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

/** The confirmed merchant (`payTo`, its name) is not where the batch would go now: refused, nothing written. */
function payToRefusal(plan: BatchPlan, payTo: string): string {
  const fallback = plan.fallback;
  if (fallback !== null) {
    return `the fallback rule sends this batch to ${fallback.to.name} (${fallback.from.name}: ${fallback.reason}), and paying ${fallback.to.name} was not confirmed: preview the batch again and confirm it; nothing was placed`;
  }
  return `this batch now stays with ${plan.target.tag().name}, not ${payTo} as confirmed: preview the batch again; nothing was placed`;
}

export function fallbackBatchHandlers(state: DeskServiceState): HandlersFor<'batch.preview' | 'batch.place' | 'batch.status' | 'batch.exportResults'> {
  const catalogs = deskCatalogs(state);
  const deskDb = state.desk.db;
  const nameOf = (profileId: string): string | null => state.desk.profiles.find(profileId)?.name ?? null;
  /** The status as its profile answers it, with the fallback that sent the batch there (if one did). */
  const withFallback = (status: BatchStatusView): BatchStatusView => {
    const fallback = batchFallback(deskDb, status.batchId, nameOf);
    return fallback === null ? status : { ...status, fallback };
  };
  /** The profile holding the batch (our batch ids are random, so one profile at most). */
  const ownerOf = async (batchId: string): Promise<ProfileEntry | null> => {
    for (const record of state.desk.profiles.list()) {
      const entry = await state.entry(record.id);
      if (holds(entry.profile.core.db, { kind: 'batch', ref: batchId })) return entry;
    }
    return null;
  };

  const currentKey = async (input: { profileId?: string | undefined; productRef: number; variantRef: number }): Promise<VariantKey> => {
    const profileId = input.profileId ?? (await state.active()).profile.record.id;
    return { profileId, productRef: input.productRef, variantRef: input.variantRef };
  };

  const previewInput = (input: HandlerInput<'batch.preview'>, at: { productRef: number; variantRef: number }): Omit<HandlerInput<'batch.preview'>, 'profileId'> => {
    return { ...withoutProfile(input), productRef: at.productRef, variantRef: at.variantRef };
  };

  /** Where the batch goes (desk/batch-route.ts), with the preview at its own merchant when reading the file's units needed one. */
  const planFor = async (key: VariantKey, input: HandlerInput<'batch.preview'>): Promise<{ plan: BatchPlan; view: BatchPreviewView | null }> => {
    const current = await profileEntry(state, key.profileId);
    const seen: { view: BatchPreviewView | null } = { view: null };
    const totalUnits = async (): Promise<number> => {
      seen.view = await current.ask<BatchPreviewView>('batch.preview', previewInput(input, key));
      return seen.view.totals.units;
    };
    try {
      const route = await routeBatch(state.desk.links, catalogs, key, totalUnits);
      if (route.fallback === null) return { plan: { target: current, productRef: key.productRef, variantRef: key.variantRef, fallback: null }, view: seen.view };
      const target = await profileEntry(state, route.target.profileId);
      return { plan: { target, productRef: route.target.productRef, variantRef: route.target.variantRef, fallback: route.fallback }, view: null };
    } catch (error) {
      if (error instanceof NoBatchFallbackError) throw new AppFailure('ACTION_NOT_ALLOWED', error.message);
      throw error;
    }
  };

  return {
    'batch.preview': async (input) => {
      const { plan: chosen, view } = await planFor(await currentKey(input), input);
      const answer = view ?? (await chosen.target.ask<BatchPreviewView>('batch.preview', previewInput(input, chosen)));
      if (chosen.fallback === null) return answer;
      return { ...answer, fallback: chosen.fallback, merchants: merchantShares(chosen.fallback, answer.totals, answer.unitPriceFen) };
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
      const payTo = input.payToProfileId ?? key.profileId;
      if (chosen.target.profile.record.id !== payTo) throw new AppFailure('ACTION_NOT_ALLOWED', payToRefusal(chosen, nameOf(payTo) ?? payTo));
      if (chosen.fallback !== null && input.unitPriceFen > chosen.fallback.limitFen) {
        throw new AppFailure('ACTION_NOT_ALLOWED', `the confirmed unit price ¥${formatYuan(input.unitPriceFen)} is above the fallback rule's limit ¥${formatYuan(chosen.fallback.limitFen)}: nothing was placed`);
      }
      const status = await chosen.target.ask<BatchStatusView>('batch.place', { ...rest, productRef: chosen.productRef, variantRef: chosen.variantRef });
      if (chosen.fallback !== null) recordBatchFallback(deskDb, status.batchId, chosen.fallback, Math.floor(Date.now() / 1000));
      return withFallback(status);
    },

    'batch.status': async ({ batchId }) => {
      const owner = await ownerOf(batchId);
      // Held by none: the active profile says it has no such batch.
      if (owner !== null) return withFallback(await owner.ask<BatchStatusView>('batch.status', { batchId }));
      return (await state.active()).ask<BatchStatusView>('batch.status', { batchId });
    },

    'batch.exportResults': async (input) => {
      const owner = (await ownerOf(input.batchId)) ?? (await state.active());
      const fallback = batchFallback(deskDb, input.batchId, nameOf);
      if (fallback === null) return owner.ask('batch.exportResults', input);
      // Sent by a rule: every order's merchant is named next to its order number.
      return readable(async () => {
        const core = owner.profile.core;
        const services = await core.merchant();
        const result = await batchResults({ db: core.db, clock: core.clock, placement: services.placement }, input.batchId, fileOf(input.file), input.format, input.language, fallback.to.name);
        return { fileName: result.fileName, dataBase64: Buffer.from(result.bytes).toString('base64') };
      });
    },
  };
}
