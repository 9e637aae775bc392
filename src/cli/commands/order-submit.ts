// Sends one recorded intent and prints its outcome as `{"clientOrderRef","state"}` (with the code and
// requestId when the merchant refused), waiting until the outcome is known or the wait runs out;
// shared by `order create` and `order confirm`. Other intents are left to `run`.
import type { MerchantServices } from '../../main/core/create-core';
import { getStoredOrder } from '../../main/core/orders/order-store';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson } from '../output';

const SUBMIT_WAIT_MS = 60_000;

export async function submitAndReport(context: CliContext, services: MerchantServices, ref: string): Promise<number> {
  const { core } = context;
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
    if (status === 'rejected' || status === 'needs_confirmation') {
      printJson({ clientOrderRef: ref, state: status, code: Number(current?.lastErrorCode), requestId: current?.lastRequestId ?? null });
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
