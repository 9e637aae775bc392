// Remembers that the merchant refused this connection's access (401 / 403, interface v1 §5 and 7.5), so that
// nothing is sent again in vain: a revoked key stays refused until the key is replaced (a new
// connection builds a new gate), a suspension or an IP allow-list refusal until GET /account answers
// again without `accessState: suspended`. GET /account is the one request still sent meanwhile (spec
// 3.3: it is the one that works while suspended), and background workers ask the gate whether to
// pause (see worker-pause.ts).
import type { Clock } from '../platform/clock';
import { MerchantAccessError } from './merchant-errors';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

/** How often a paused worker may ask GET /account whether a suspension or IP refusal is over. */
export const ACCESS_RECHECK_MS = 5 * 60_000;

export interface AccessGate {
  /** The refusal in force, or null. */
  refusal(): MerchantAccessError | null;
  /** An answer refused our access. */
  refused(error: MerchantAccessError): void;
  /** GET /account answered: `suspended` keeps (or starts) the pause, anything else lifts a suspension or IP refusal. */
  accountAnswered(accessState: string): void;
  /**
   * For paused workers: asks GET /account (via `probe`) at most once per ACCESS_RECHECK_MS, and only
   * for a refusal that can end without a new key. Failures are swallowed: the refusal stays.
   */
  recheck(probe: () => Promise<unknown>): Promise<void>;
  /**
   * Calls `listener` with every accessState GET /account answers (after the gate took it in), e.g. so
   * the order outbox sends the intents a suspension parked once it ends. Returns the unsubscribe.
   */
  onAccountAnswered(listener: (accessState: string) => void): () => void;
}

export function createAccessGate(clock: Clock): AccessGate {
  let current: MerchantAccessError | null = null;
  let lastProbeMs = -Infinity;
  let probing: Promise<void> | null = null;
  const listeners = new Set<(accessState: string) => void>();

  return {
    refusal: () => current,
    refused(error) {
      // A revoked key outranks a suspension: replacing the key is the first thing to do.
      if (current?.refusal === 'keyInvalid' && error.refusal !== 'keyInvalid') return;
      current = error;
    },
    accountAnswered(accessState) {
      if (accessState === 'suspended') {
        if (current?.refusal !== 'keyInvalid') current = new MerchantAccessError(403, MERCHANT_ERROR.CREDENTIAL_SUSPENDED, current?.requestId ?? null, true);
      } else if (current !== null && current.refusal !== 'keyInvalid') {
        current = null;
      }
      for (const listener of listeners) listener(accessState);
    },
    onAccountAnswered(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async recheck(probe) {
      if (current === null || current.refusal === 'keyInvalid') return;
      if (probing !== null) return probing;
      const now = clock.nowMs();
      if (now - lastProbeMs < ACCESS_RECHECK_MS) return;
      lastProbeMs = now;
      probing = probe().then(
        () => undefined,
        () => undefined,
      );
      try {
        await probing;
      } finally {
        probing = null;
      }
    },
  };
}
