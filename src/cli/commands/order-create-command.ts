// `order create --product N [--variant N] --units N [--entry fieldRef=value …] [--max-price YUAN]
// [--callback-url URL] [--queue-only] [--json]`: records the intent with the unit price confirmed
// (--max-price, or the cached price, printed) before anything is sent, then submits it and waits
// until its outcome is known or the wait runs out (the intent then stays in the outbox for `run`).
// With the merchant unreachable and no trusted template cached, the order is kept as needs_template
// (exit 4): `run` (or the app) fetches the template once the merchant answers and sends it then.
// The price guard reads the product first: a higher price or a product that cannot be supplied parks
// the intent (exit 3, both prices named) and charges nothing.
// --fallback (contract §15.4): when the variant is in a link with a fallback rule and this merchant
// cannot supply it (or asks above the rule's limit), the order goes to the rule's choice, decided by
// core's one fallback choice (desk/fallback-choice.ts, the same the app's batch and dialog use), at
// that merchant's cached price, which is never above the limit; no merchant qualifying exits 3. The
// merchant paid is named on stderr and in the JSON (`merchant`, `fallback`: issue 24).
// Without --callback-url the order carries the live callback URL of a `run --webhook-port …` on the
// same data folder, while that runner's heartbeat is fresh, so its webhooks reach the receiver.
import type { MerchantServices, ProfileCatalogs } from '../../core';
import { fallbackOffers, TemplateOfflineError, VariantNotFoundError } from '../../core';
import { formatYuan } from '../../shared/money';
import { intOption, optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, progress, yuan } from '../output';
import { reportNeedsTemplate, submitAndReport } from './order-submit';
import { confirmedUnitPrice, maxPriceOption } from './price-option';

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

interface FallbackTarget {
  readonly context: CliContext;
  readonly productRef: number;
  readonly variantRef: number;
  readonly unitPriceFen: number;
  /** What every JSON line says about the merchant paid and why. */
  readonly named: Record<string, unknown>;
}

/** --fallback: where the link's rule sends this order (null: here, as asked), or an exit code when no merchant of the rule qualifies. */
async function ruleTarget(context: CliContext, productRef: number, variantRef: number, units: number): Promise<FallbackTarget | number | null> {
  const catalogs: ProfileCatalogs = async (profileId) => {
    const opened = await context.desk.open(profileId);
    return { tag: { profileId, name: opened.record.name }, db: opened.core.db };
  };
  const { offers, decision } = await fallbackOffers(context.desk.links, catalogs, { profileId: context.profile.id, productRef, variantRef }, units);
  const rule = offers.link?.rule ?? null;
  if (rule === null) {
    progress(`--fallback: product ${productRef} variant ${variantRef} has no link with a fallback rule; ordering from ${context.profile.name}`);
    return null;
  }
  if (decision.reason === null) return null;
  const choice = decision.choice;
  if (choice === null || choice.unitPriceFen === null) {
    progress(`${context.profile.name} cannot take this order (${decision.reason}) and no merchant of the link's fallback rule can supply ${units} unit(s) at or below ¥${formatYuan(rule.maxUnitPriceFen)}: nothing was placed`);
    printJson({ state: 'noFallback', reason: decision.reason, limit: yuan(rule.maxUnitPriceFen) });
    return EXIT.business;
  }
  const opened = await context.desk.open(choice.key.profileId);
  progress(`${context.profile.name} cannot take this order (${decision.reason}): the fallback rule orders from ${opened.record.name}, product ${choice.key.productRef} variant ${choice.key.variantRef}, at ¥${formatYuan(choice.unitPriceFen)} (limit ¥${formatYuan(rule.maxUnitPriceFen)})`);
  const named = {
    merchant: { profileId: opened.record.id, name: opened.record.name },
    fallback: { from: { profileId: context.profile.id, name: context.profile.name }, reason: decision.reason, limit: yuan(rule.maxUnitPriceFen), fromUnitPrice: yuan(offers.current.unitPriceFen) },
  };
  return { context: { ...context, profile: opened.record, core: opened.core }, productRef: choice.key.productRef, variantRef: choice.key.variantRef, unitPriceFen: choice.unitPriceFen, named };
}

export async function orderCreateCommand(given: CliContext, args: ParsedArgs): Promise<number> {
  const asked = { productRef: intOption(args, 'product', true), variantRef: intOption(args, 'variant', false) ?? 0 };
  const units = intOption(args, 'units', true);
  const entries = entryGroups(args.options.get('entry') ?? []);
  const routed = args.flags.has('fallback') ? await ruleTarget(given, asked.productRef, asked.variantRef, units) : null;
  if (typeof routed === 'number') return routed;
  const context = routed?.context ?? given;
  const { productRef, variantRef } = routed ?? asked;
  const { core } = context;
  // Without --callback-url the order takes the URL live when it is first sent (a running `run`'s receiver).
  const callbackUrl = optionOf(args, 'callback-url');
  const services = await core.merchant();
  await prepareTemplate(services, productRef, variantRef);
  // Under the rule: the chosen merchant's cached price, at or below the limit (and --max-price, when given).
  const unitPriceFen = routed === null ? confirmedUnitPrice(context, args, productRef, variantRef) : Math.min(routed.unitPriceFen, maxPriceOption(args) ?? routed.unitPriceFen);
  const intent = await services.placement.place({
    productRef,
    variantRef,
    units,
    unitPriceFen,
    ...(entries.length > 0 ? { purchaseEntries: entries } : {}),
    ...(callbackUrl === undefined ? {} : { orderCallbackUrl: callbackUrl }),
  });
  const ref = intent.clientOrderRef;
  const named = routed?.named ?? {};
  if (intent.status === 'needs_template') return reportNeedsTemplate(intent.clientOrderRef, unitPriceFen, named);
  if (args.flags.has('queue-only')) {
    printJson({ clientOrderRef: ref, state: 'queued', confirmedUnitPrice: yuan(unitPriceFen), ...named });
    return EXIT.ok;
  }
  if (routed !== null) progress(`order ${ref} is ${routed.context.profile.name}'s: ${routed.context.profile.name} is paid, ${given.profile.name} nothing`);
  return submitAndReport(context, services, ref, named);
}
