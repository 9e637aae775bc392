// `--max-price YUAN`: the unit price the CLI user confirms for `order create` and `order confirm`
// (the price guard, contract §7.7). Without it the catalog cache's current price is taken and printed on
// stderr, so the user sees what the order is held to; with no price known at all nothing is placed.
import { cachedUnitPriceFen } from '../../core';
import { parseYuanText } from '../../shared/money';
import { optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { progress, yuan } from '../output';

/** The --max-price given, in fen; undefined when absent. Exact yuan with at most two decimals, above zero. */
export function maxPriceOption(args: ParsedArgs): number | undefined {
  const text = optionOf(args, 'max-price');
  if (text === undefined) return undefined;
  const fen = parseYuanText(text);
  if (fen === null || fen <= 0) throw new UsageError(`--max-price takes a unit price in yuan with at most two decimals, e.g. 18.50 (got "${text}")`);
  return fen;
}

/** --max-price, or the cached price (said on stderr); throws UsageError when neither is known. */
export function confirmedUnitPrice(context: CliContext, args: ParsedArgs, productRef: number, variantRef: number): number {
  const given = maxPriceOption(args);
  if (given !== undefined) return given;
  const cached = cachedUnitPriceFen(context.core.db, productRef, variantRef);
  if (cached === null) throw new UsageError(`no cached price for product ${productRef} variant ${variantRef}: run sync, or give --max-price YUAN`);
  progress(`unit price ¥${yuan(cached) ?? ''} (the catalog cache's current price; the order is held to it, --max-price YUAN to choose)`);
  return cached;
}
