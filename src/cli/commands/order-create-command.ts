// `order create --product N [--variant N] --units N [--entry fieldRef=value …] [--max-price YUAN]
// [--callback-url URL] [--queue-only] [--json]`: records the intent with the unit price confirmed
// (--max-price, or the cached price, printed) before anything is sent, then submits it and waits
// until its outcome is known or the wait runs out (the intent then stays in the outbox for `run`).
// With the merchant unreachable and no trusted template cached, the order is kept as needs_template
// (exit 4): `run` (or the app) fetches the template once the merchant answers and sends it then.
// The price guard reads the product first: a higher price or a product that cannot be supplied parks
// the intent (exit 3, both prices named) and charges nothing.
// Without --callback-url the order carries the live callback URL of a `run --webhook-port …` on the
// same data folder, while that runner's heartbeat is fresh, so its webhooks reach the receiver.
import type { MerchantServices } from '../../core';
import { TemplateOfflineError, VariantNotFoundError } from '../../core';
import { intOption, optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, yuan } from '../output';
import { reportNeedsTemplate, submitAndReport } from './order-submit';
import { confirmedUnitPrice } from './price-option';

/** `--entry f=v` repeated: the n-th value of a field goes into the n-th group (perUnit batches). */
export function entryGroups(values: readonly string[]): Record<string, string>[] {
  const groups: Record<string, string>[] = [];
  const seen = new Map<string, number>();
  for (const pair of values) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError('--entry takes fieldRef=value');
    const field = pair.slice(0, at);
    const index = seen.get(field) ?? 0;
    seen.set(field, index + 1);
    const group = groups[index] ?? {};
    group[field] = pair.slice(at + 1);
    groups[index] = group;
  }
  return groups;
}

/**
 * The template through core's one template source (trusted by revision, else fetched now, with the
 * product's detail first when the variant is unknown). A variant the product does not have (a
 * multi-variant product ordered without --variant) is bad usage, said with the variants there are,
 * before anything is sent. The merchant away: nothing to fetch now, and placing records the order as
 * needs_template.
 */
async function prepareTemplate(services: MerchantServices, productRef: number, variantRef: number): Promise<void> {
  try {
    await services.placement.templateForForm(productRef, variantRef);
  } catch (error) {
    if (error instanceof VariantNotFoundError) {
      const listed = error.variants.map((v) => `${v.variantRef} (${v.title})`).join(', ');
      throw new UsageError(`product ${productRef} has no variant ${variantRef}; choose one with --variant N: ${listed}`);
    }
    if (!(error instanceof TemplateOfflineError)) throw error;
  }
}

export async function orderCreateCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const productRef = intOption(args, 'product', true);
  const variantRef = intOption(args, 'variant', false) ?? 0;
  const units = intOption(args, 'units', true);
  const entries = entryGroups(args.options.get('entry') ?? []);
  const { core } = context;
  // Without --callback-url the order takes the URL live when it is first sent (a running `run`'s receiver).
  const callbackUrl = optionOf(args, 'callback-url');
  const services = await core.merchant();
  await prepareTemplate(services, productRef, variantRef);
  const unitPriceFen = confirmedUnitPrice(context, args, productRef, variantRef);
  const intent = await services.placement.place({
    productRef,
    variantRef,
    units,
    unitPriceFen,
    ...(entries.length > 0 ? { purchaseEntries: entries } : {}),
    ...(callbackUrl === undefined ? {} : { orderCallbackUrl: callbackUrl }),
  });
  const ref = intent.clientOrderRef;
  if (intent.status === 'needs_template') return reportNeedsTemplate(intent.clientOrderRef, unitPriceFen);
  if (args.flags.has('queue-only')) {
    printJson({ clientOrderRef: ref, state: 'queued', confirmedUnitPrice: yuan(unitPriceFen) });
    return EXIT.ok;
  }
  return submitAndReport(context, services, ref);
}
