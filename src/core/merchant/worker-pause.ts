// The merchant's refusals as a pause for background workers (tracker, after-sales, watched-product
// poll, webhook inbox): while the key is refused they send nothing (a suspension or IP refusal is
// re-checked by GET /account now and then), and while a Retry-After holds any group they use they
// sleep until it ends instead of hammering (contract §8.1).
import type { QuotaGroup } from '../../shared/merchant-quotas';
import type { Clock } from '../platform/clock';
import type { WorkerPause } from '../platform/worker-loop';
import type { AccessGate } from './access-gate';
import type { NotBeforeStore } from './not-before-store';

export interface MerchantPauseDeps {
  readonly notBefore: NotBeforeStore;
  readonly access: AccessGate;
  readonly clock: Clock;
  /** GET /account, asked by the gate at most every few minutes while a suspension may be over. */
  readonly probe: () => Promise<unknown>;
}

/** The pause of a worker that sends requests of these quota groups. */
export function merchantWorkerPause(deps: MerchantPauseDeps, groups: readonly QuotaGroup[]): WorkerPause {
  return {
    pausedUntilMs() {
      if (deps.access.refusal() !== null) return Infinity;
      return deps.notBefore.latestOn(groups, deps.clock.nowMs())?.untilMs ?? null;
    },
    whilePaused: () => deps.access.recheck(deps.probe),
  };
}
