// The merchant's refusals and absences as a pause for background workers (tracker, outbox,
// after-sales, watched-product poll, webhook inbox), read from the one connection state machine:
// while the key is refused they send nothing (a suspension or IP refusal is re-checked by GET /account
// now and then); while the merchant is unreachable (offline, certificate) or struggling (degraded)
// they send nothing either and one probe with backoff decides when they resume
// (connection/reach-probe.ts); and while a Retry-After holds any group they use they sleep until it
// ends instead of hammering (contract §8.1).
import type { QuotaGroup } from '../../shared/merchant-quotas';
import type { ReachProbe } from '../connection/reach-probe';
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
  /** The probe of an unreachable or struggling merchant; without it workers are not held for that. */
  readonly reach?: ReachProbe;
}

/** The pause of a worker that sends requests of these quota groups. */
export function merchantWorkerPause(deps: MerchantPauseDeps, groups: readonly QuotaGroup[]): WorkerPause {
  return {
    pausedUntilMs() {
      if (deps.access.refusal() !== null) return Infinity;
      const probeAt = deps.reach?.nextProbeAtMs() ?? null;
      const hold = deps.notBefore.latestOn(groups, deps.clock.nowMs())?.untilMs ?? null;
      if (probeAt === null) return hold;
      return Math.max(probeAt, hold ?? probeAt);
    },
    async whilePaused() {
      await deps.access.recheck(deps.probe);
      await deps.reach?.probeIfDue(deps.probe);
    },
  };
}
