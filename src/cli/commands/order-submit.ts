// Sends one recorded intent and prints its outcome as `{"clientOrderRef","state"}` (with the code and
// requestId when the merchant refused), waiting until the outcome is known or the wait runs out;
// shared by `order create` and `order confirm`. Other intents are left to `run`. `named` (the merchant
// a fallback rule sent the order to, issue 24) goes into every JSON line it prints.
import type { MerchantServices } from '../../core';
import { getStoredOrder } from '../../core';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { ACCESS_PARKED_STATUSES, type AccessParkStatus, type OrderIntent } from '../../core';
import { printJson as writeJson, progress, yuan } from '../output';
import { serverFailingMessage } from './order-retry-command';

const SUBMIT_WAIT_MS = 60_000;

export async function submitAndReport(context: CliContext, services: MerchantServices, ref: string, named: Record<string, unknown> = {}): Promise<number> {
  const { core } = context;
  const printJson = (value: Record<string, unknown>): void => writeJson({ ...value, ...named });
  const deadline = core.clock.nowMs() + SUBMIT_WAIT_MS;
  for (;;) {
    // Only this intent: others queued with --queue-only wait for `run`.
    const pass = await services.outbox.submit(ref);
    const current = services.intents.getIntent(ref);
    const status = current?.status ?? 'missing';
    if (status === 'accepted') {
      printJson({ clientOrderRef: ref, state: getStoredOrder(core.db, ref)?.state ?? 'accepted' });
      return EXIT.ok;
    }
    if (current !== null && (status === 'price_changed' || status === 'unavailable')) {
      progress(parkedMessage(current));
      printJson({
        clientOrderRef: ref,
        state: status,
        confirmedUnitPrice: yuan(current.confirmedUnitPriceFen),
        unitPrice: yuan(current.guardUnitPriceFen),
        unavailableReason: current.unavailableReason,
      });
      return EXIT.business;
    }
    if (current !== null && isAccessParked(current.status)) {
      progress(accessParkMessage(current));
      printJson({ clientOrderRef: ref, state: status, code: Number(current.lastErrorCode), requestId: current.lastRequestId });
      return EXIT.business;
    }
    // The merchant named a time beyond what a command waits (a long Retry-After, or a hold another
    // process stored): say when, and leave the intent queued for then (`run`, the app, or this again).
    const nextAtMs = (current?.nextAttemptAt ?? 0) * 1000;
    if (current !== null && (status === 'queued' || status === 'unknown') && current.lastErrorCode === 'NOT_BEFORE' && nextAtMs > core.clock.nowMs()) {
      progress(`the merchant asked to wait: order ${ref} is kept ${status} and may be sent again from ${new Date(nextAtMs).toISOString()}`);
      printJson({ clientOrderRef: ref, state: status, notBefore: new Date(nextAtMs).toISOString() });
      return EXIT.network;
    }
    // The merchant answered 500 too often (contract §7.12): kept, and nothing more is sent until the buyer retries.
    if (current !== null && status === 'merchant_failing') {
      progress(serverFailingMessage(current));
      printJson({ clientOrderRef: ref, state: status, serverFailures: current.serverFailures, requestIds: current.requestIds });
      return EXIT.merchantFailing;
    }
    if (status === 'needs_template') return reportNeedsTemplate(ref, current?.confirmedUnitPriceFen ?? null, named);
    if (status === 'rejected' || status === 'needs_confirmation') {
      printJson({ clientOrderRef: ref, state: status, code: codeOf(current?.lastErrorCode ?? null), requestId: current?.lastRequestId ?? null });
      return EXIT.business;
    }
    // Unreachable (the client already retried for seconds) or out of time: waiting on in this
    // process only delays the answer. Not lost: the intent keeps its ref, stays in the outbox, and
    // `run` sends it or resolves it by GET /orders/{ref}.
    if (pass.offline || core.clock.nowMs() > deadline) {
      printJson({ clientOrderRef: ref, state: status });
      return EXIT.network;
    }
    await core.clock.sleep(250);
  }
}

/** The merchant's code as a number (409101), or our own reason as it is (SCHEMA_CHANGED: parked before sending). */
function codeOf(lastErrorCode: string | null): number | string | null {
  if (lastErrorCode === null) return null;
  return /^\d+$/.test(lastErrorCode) ? Number(lastErrorCode) : lastErrorCode;
}

/** Kept without a template (the merchant unreachable): `run` or the app completes it once the merchant answers. */
export function reportNeedsTemplate(ref: string, confirmedUnitPriceFen: number | null, named: Record<string, unknown> = {}): number {
  progress(`the merchant cannot be reached and no current purchase template is cached: order ${ref} is kept as needs_template; run (or the app) fetches the template and sends it once the merchant answers, or order withdraw ${ref}`);
  writeJson({ clientOrderRef: ref, state: 'needs_template', confirmedUnitPrice: yuan(confirmedUnitPriceFen), ...named });
  return EXIT.network;
}

function isAccessParked(status: string): status is AccessParkStatus {
  return (ACCESS_PARKED_STATUSES as readonly string[]).includes(status);
}

/** The merchant refused access: what it said and what the user can do; the intent is kept. */
export function accessParkMessage(intent: OrderIntent): string {
  const ref = intent.clientOrderRef;
  const said = `${intent.lastErrorCode ?? '?'} ${intent.lastErrorMessage ?? ''}`.trim();
  const kept = `order ${ref} kept; it goes on by itself`;
  if (intent.status === 'needs_key') return `the merchant refused the API key (${said}): ${kept} once a working key is entered with connect, or order withdraw ${ref}`;
  if (intent.status === 'account_suspended') return `the merchant account is suspended (${said}): ${kept} once the merchant lifts the suspension, or order withdraw ${ref}`;
  return `the merchant refused this computer's access (${said}): ${kept} once the merchant allows it, or order withdraw ${ref}`;
}

/** The price guard parked the intent: say why with both prices, and what the user can do. */
export function parkedMessage(intent: OrderIntent): string {
  const ref = intent.clientOrderRef;
  const next = `order ${ref} kept; order confirm ${ref}`;
  if (intent.status === 'price_changed') {
    const now = yuan(intent.guardUnitPriceFen) ?? '?';
    return `price rose: confirmed ¥${yuan(intent.confirmedUnitPriceFen) ?? '?'}, merchant now asks ¥${now} (${next} --max-price ${now} or order withdraw ${ref})`;
  }
  return `cannot be supplied now (${intent.unavailableReason ?? 'unavailable'}; ${next} once it can, or order withdraw ${ref})`;
}
