// Reads the connection state machine (connection/connection-state.ts, the one home of the rules) as
// a gate for requests: while it says the merchant refused this connection's access (401 / 403,
// interface v1 §5 and 7.5) nothing is sent again in vain. A revoked key stays refused until the key is
// replaced (a new connection builds a new machine and gate), a suspension or an IP allow-list refusal
// until GET /account answers again without `accessState: suspended`. GET /account is the one request
// still sent meanwhile (spec 3.3: it is the one that works while suspended), and background workers
// ask the gate whether to pause (see worker-pause.ts).
import { createConnectionStateMachine, isRefusalState, type ConnectionStateMachine, type MerchantObservation } from '../connection/connection-state';
import type { Clock } from '../platform/clock';
import { createSingleFlight } from '../platform/single-flight';
import { MerchantAccessError } from './merchant-errors';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';

/** How often a paused worker may ask GET /account whether a suspension or IP refusal is over. */
export const ACCESS_RECHECK_MS = 5 * 60_000;

export interface AccessGate {
  /** The connection state machine this gate reads (and every answer feeds). */
  readonly connection: ConnectionStateMachine;
  /** The refusal in force, or null. */
  refusal(): MerchantAccessError | null;
  /** Any answer (or its absence) the request sender saw: fed into the connection state machine. */
  observed(observation: MerchantObservation): void;
  /** An answer refused our access. */
  refused(error: MerchantAccessError): void;
  /** GET /account answered: `suspended` keeps (or starts) the pause, anything else lifts a suspension or IP refusal. `slowMs`: it was slow. */
  accountAnswered(accessState: string, requestId?: string | null, slowMs?: number | null): void;
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

export function createAccessGate(clock: Clock, connection: ConnectionStateMachine = createConnectionStateMachine(clock)): AccessGate {
  let lastProbeMs = -Infinity;
  const flight = createSingleFlight();
  const listeners = new Set<(accessState: string) => void>();

  const refusal = (): MerchantAccessError | null => {
    const view = connection.view();
    if (!isRefusalState(view.state)) return null;
    const httpStatus = view.httpStatus ?? (view.state === 'keyRefused' ? 401 : 403);
    const code = view.merchantCode ?? (view.state === 'suspended' ? MERCHANT_ERROR.CREDENTIAL_SUSPENDED : view.state === 'ipDenied' ? MERCHANT_ERROR.SOURCE_IP_DENIED : MERCHANT_ERROR.INVALID_CREDENTIAL);
    return new MerchantAccessError(httpStatus, code, view.requestId, true);
  };

  return {
    connection,
    refusal,
    observed: (observation) => connection.observe(observation),
    refused(error) {
      connection.observe({ kind: 'answered', httpStatus: error.httpStatus, code: error.code, requestId: error.requestId, retryAtMs: null });
    },
    accountAnswered(accessState, requestId = null, slowMs = null) {
      connection.observe({ kind: 'account', accessState, requestId, slowMs });
      for (const listener of listeners) listener(accessState);
    },
    onAccountAnswered(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async recheck(probe) {
      const current = refusal();
      if (current === null || current.refusal === 'keyInvalid') return;
      const inFlight = flight.running();
      if (inFlight !== null) return inFlight;
      const now = clock.nowMs();
      if (now - lastProbeMs < ACCESS_RECHECK_MS) return;
      lastProbeMs = now;
      await flight.run(probe);
    },
  };
}
