// The CLI's answers to a parked intent (the merchant holds nothing under its ref):
//   order confirm REF [--units N] [--entry fieldRef=value …] [--max-price YUAN]  after 409101
//     (template changed) or the price guard (price_changed, unavailable): checks the (stored or given)
//     units and entries against the cached template, takes the unit price confirmed now (--max-price;
//     without it the price confirmed before for 409101, the cache's current price, printed, after the
//     guard), and sends the same ref, guarded again.
//   order withdraw REF  gives the intent up: at once when the merchant surely holds nothing; an
//     unknown outcome is looked up first (GET /orders/{ref}). Prints which case applied.
import type { PurchaseInput } from '../../core';
import { intOption, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, progress } from '../output';
import { entryGroups } from './order-create-command';
import { submitAndReport } from './order-submit';
import { confirmedUnitPrice, maxPriceOption } from './price-option';

function refOf(args: ParsedArgs, command: string): string {
  const ref = args.words[2];
  if (ref === undefined) throw new UsageError(`order ${command} needs a clientOrderRef`);
  return ref;
}

export async function orderConfirmCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const ref = refOf(args, 'confirm');
  const services = await context.core.merchant();
  const intent = services.intents.getIntent(ref);
  if (intent === null) throw new UsageError(`no order ${ref} on this machine`);
  const given = args.options.get('entry');
  const input: PurchaseInput = {
    units: intOption(args, 'units', false) ?? intent.units,
    // Without --entry the buyer confirms what was entered before.
    ...(given !== undefined ? { purchaseEntries: entryGroups(given) } : intent.purchaseEntries !== null ? { purchaseEntries: intent.purchaseEntries } : {}),
  };
  // After the guard the old price is what parked it: the price confirmed now is the one given, or the
  // one the guard just read into the cache (printed). After 409101 the price confirmed before stands.
  const parkedByGuard = intent.status === 'price_changed' || intent.status === 'unavailable';
  const unitPriceFen = parkedByGuard ? confirmedUnitPrice(context, args, intent.productRef, intent.variantRef) : maxPriceOption(args);
  services.intents.confirmIntent(ref, { ...input, ...(unitPriceFen === undefined ? {} : { unitPriceFen }) });
  return submitAndReport(context, services, ref);
}

const WITHDRAW_WORDS = {
  withdrawn: 'withdrawn: the merchant never had this order, and its ref is retired',
  checking: 'being checked: the merchant could not say yet whether it has this order; it is never sent again, and `run` withdraws it or keeps it once the merchant answers',
  merchantHasOrder: 'not withdrawn: the merchant has this order (cancel it there if it allows)',
} as const;

export async function orderWithdrawCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const ref = refOf(args, 'withdraw');
  const services = await context.core.merchant();
  if (services.intents.getIntent(ref) === null) throw new UsageError(`no order ${ref} on this machine`);
  const outcome = await services.outbox.withdraw(ref);
  progress(`order ${ref} ${WITHDRAW_WORDS[outcome]}`);
  printJson({ clientOrderRef: ref, outcome, state: services.intents.getIntent(ref)?.status ?? 'missing' });
  if (outcome === 'withdrawn') return EXIT.ok;
  return outcome === 'checking' ? EXIT.network : EXIT.business;
}
