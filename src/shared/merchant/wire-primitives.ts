// Building blocks shared by the interface v1 schemas: the field types of interface v1 §2.1 and contract §0.
import { z } from 'zod';
import { yuanNumberToFen } from '../money';
import type { Fen } from '../money';

/**
 * Money (interface v1 §2.1): a JSON number of yuan with at most two decimals, turned into integer fen on
 * receipt. A third decimal is an error, never rounded away: a price we cannot represent exactly is
 * a price we must not pay. After parsing, every money field of these schemas holds fen.
 */
export const yuanAsFen = z.number().transform((value, ctx): Fen => {
  const fen = yuanNumberToFen(value);
  if (fen === null) {
    ctx.addIssue({ code: 'custom', input: value, message: `money must be yuan with at most two decimals (got ${value})` });
    return z.NEVER;
  }
  return fen;
});

/** Money that cannot be below zero (prices, amounts); the balance alone may be signed. */
export const nonNegativeYuanAsFen = yuanAsFen.pipe(z.int().nonnegative({ message: 'money must not be negative' }));

/** Times are integer Unix seconds (interface v1 §2.1). */
export const unixSeconds = z.int().nonnegative();

/** Integer identifiers (interface v1 §2.2); `variantRef` is 0 for a single-variant product. */
export const integerRef = z.int().nonnegative();

/** String identifiers are stored as received: no prefix, no type change (interface v1 §2.2). */
export const stringRef = z.string().min(1);

/** An enum-like value: any string, classified later by known-values.ts (interface v1 §9.3). */
export const enumText = z.string();
