// The CLI's answer to PURCHASE_SCHEMA_CHANGED (409101), which parks an intent as needs_confirmation
// instead of resubmitting anything by itself:
//   order confirm REF [--units N] [--entry fieldRef=value …]  checks the (stored or given) units and
//     entries against the refreshed template and sends the same ref; the merchant stored nothing
//     for the refused create (contract 7.1), so the ref is still free.
//   order withdraw REF  gives the intent up (only while the merchant surely holds nothing).
import type { PurchaseInput } from '../../main/core/orders/purchase-validation';
import { allowOnly, intOption, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson } from '../output';
import { entryGroups } from './order-create-command';
import { submitAndReport } from './order-submit';

function refOf(args: ParsedArgs, command: string): string {
  const ref = args.words[2];
  if (ref === undefined) throw new UsageError(`order ${command} needs a clientOrderRef`);
  return ref;
}

export async function orderConfirmCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  allowOnly(args, ['units', 'entry']);
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
  services.intents.confirmIntent(ref, input);
  return submitAndReport(context, services, ref);
}

export async function orderWithdrawCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  allowOnly(args, []);
  const ref = refOf(args, 'withdraw');
  const services = await context.core.merchant();
  services.intents.withdrawIntent(ref);
  printJson({ clientOrderRef: ref, state: services.intents.getIntent(ref)?.status ?? 'withdrawn' });
  return EXIT.ok;
}
