// `batch FILE … --fallback` (contract §13.7, §15.4, issue 24): where a batch goes under its link's rule,
// decided by core's one route (desk/batch-route.ts, the app's too), and how the CLI names the merchant
// that is paid: on stderr and in the preview's and status's text and JSON. `--yes` is the buyer's OK
// for that merchant, as the app's tick is; the desk remembers the fallback so the app says so as well.
import type { ProfileCatalogs } from '../../core';
import { batchFallback, NoBatchFallbackError, routeBatch } from '../../core';
import type { BatchFallbackView, BatchMerchantShare } from '../../shared/ipc/views/batch';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, progress, yuan } from '../output';

export interface BatchPlace {
  /** The context of the profile the batch is placed in (the rule's choice, or the one asked). */
  readonly context: CliContext;
  readonly productRef: number;
  readonly variantRef: number;
  readonly fallback: BatchFallbackView | null;
  /** The rule's choice's cached unit price; null when the batch stays. */
  readonly unitPriceFen: number | null;
}

export const profileCatalogs =
  (context: CliContext): ProfileCatalogs =>
  async (profileId) => {
    const opened = await context.desk.open(profileId);
    return { tag: { profileId, name: opened.record.name }, db: opened.core.db };
  };

/** Where the batch goes; an exit code (nothing placed, said on stderr and stdout) when the rule finds no merchant. */
export async function batchPlace(context: CliContext, productRef: number, variantRef: number, totalUnits: () => Promise<number>): Promise<BatchPlace | number> {
  const key = { profileId: context.profile.id, productRef, variantRef };
  try {
    const route = await routeBatch(context.desk.links, profileCatalogs(context), key, totalUnits);
    const fallback = route.fallback;
    if (fallback === null) return { context, productRef, variantRef, fallback: null, unitPriceFen: null };
    const opened = await context.desk.open(route.target.profileId);
    progress(
      `${fallback.from.name} cannot take this batch (${fallback.reason}): the fallback rule orders it from ${fallback.to.name}, product ${route.target.productRef} variant ${route.target.variantRef}, at ¥${yuan(route.unitPriceFen) ?? '?'} (limit ¥${yuan(fallback.limitFen) ?? ''}); ${fallback.to.name} is paid, ${fallback.from.name} nothing`,
    );
    return { context: { ...context, profile: opened.record, core: opened.core }, productRef: route.target.productRef, variantRef: route.target.variantRef, fallback, unitPriceFen: route.unitPriceFen };
  } catch (error) {
    if (!(error instanceof NoBatchFallbackError)) throw error;
    progress(error.message);
    printJson({ state: 'noFallback', reason: error.reason, limit: yuan(error.limitFen) });
    return EXIT.business;
  }
}

/** The fallback a batch was placed under (desk batch_fallbacks), merchants named as they are now. */
export function placedFallback(context: CliContext, batchId: string): BatchFallbackView | null {
  return batchFallback(context.desk.db, batchId, (profileId) => context.desk.profiles.find(profileId)?.name ?? null);
}

export const merchantJson = (fallback: BatchFallbackView): Record<string, unknown> => ({
  merchant: fallback.to,
  fallback: { from: fallback.from, reason: fallback.reason, limit: yuan(fallback.limitFen), fromUnitPrice: yuan(fallback.fromUnitPriceFen ?? null) },
});

export const sharesJson = (shares: readonly BatchMerchantShare[]): Record<string, unknown>[] =>
  shares.map((share) => ({ merchant: share.merchant, fallback: share.fallback, orders: share.orders, units: share.units, unitPrice: yuan(share.unitPriceFen), total: yuan(share.totalFen) }));

/** One line per merchant: what it is asked to charge. */
export const sharesText = (shares: readonly BatchMerchantShare[]): string[] =>
  shares.map((share) =>
    share.fallback
      ? `${share.merchant.name} (fallback rule): ${share.orders} orders, ${share.units} units at ¥${yuan(share.unitPriceFen) ?? '?'}, total ¥${yuan(share.totalFen) ?? ''}`
      : `${share.merchant.name}: nothing (not charged)`,
  );
