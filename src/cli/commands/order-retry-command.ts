// `order retry REF`: the buyer's answer to an order the merchant failed too often (merchant_failing,
// contract §7.12: MAX_SERVER_FAILURES answers of HTTP 500 over its life). Its count starts again and it
// is looked up by its ref first (a create that met a 500 may have been taken), then sent under the same
// ref when the merchant has none; the outcome is reported as `order create` reports it.
import { MAX_SERVER_FAILURES, type OrderIntent } from '../../core';
import { UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { submitAndReport } from './order-submit';

export async function orderRetryCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const ref = args.words[2];
  if (ref === undefined) throw new UsageError('order retry needs a clientOrderRef');
  const services = await context.core.merchant();
  const intent = services.intents.getIntent(ref);
  if (intent === null) throw new UsageError(`no order ${ref} on this machine`);
  if (intent.status !== 'merchant_failing') throw new UsageError(`order ${ref} is ${intent.status}, not waiting for a retry after the merchant's failures`);
  services.outbox.retryFailing(ref);
  return submitAndReport(context, services, ref);
}

/** What the buyer reads when the ceiling was reached: how often, the requestIds to give the merchant, what to do. */
export function serverFailingMessage(intent: OrderIntent): string {
  const ref = intent.clientOrderRef;
  const ids = intent.requestIds.length === 0 ? '' : ` (requestIds ${intent.requestIds.join(', ')})`;
  return `the merchant failed ${intent.serverFailures} times (HTTP 500, at most ${MAX_SERVER_FAILURES} per order)${ids}: order ${ref} is kept and nothing more is sent until you retry: order retry ${ref} (looked up first, never charged twice), or order withdraw ${ref}`;
}
