// The one connection state machine (contract §8.3): every merchant answer the request sender sees,
// buyer's and background alike, is folded into one state that the header, the banners and the
// background workers all read. The rules live in nextConnectionState, a pure function, so that any
// sequence of answers can be checked against them (test/core/connection/connection-state.test.ts):
// - a refusal (401, 403) outranks everything else: it holds until GET /account says access works
//   again (suspension, IP refusal) or, for a refused key (401), until the key is replaced (a new
//   connection builds a new machine). A success of another request does not lift it: it may be the
//   answer of a request sent before the refusal;
// - a 401 outranks a 403: replacing the key is the first thing to do;
// - otherwise the latest answer decides: any answer of the interface (a success, or a business
//   refusal of one request such as 402001 balance) is "online"; 5xx, 429001 and timeouts are
//   "degraded"; a certificate failure is "certificate"; no route (DNS, refused, unreachable, a reset
//   before any connection) is "offline";
// - an answer slower than SLOW_ANSWER_MS (slow-answer.ts) is "degraded" with `slowMs`, and so is a
//   request still unanswered after it (from "online" only: it does not hide a worse state). The
//   merchant answers, so work is not held back for it (holdsBackWork).
// A malformed answer below 500 says nothing about the connection and leaves the state as it was.
import type { ConnectionStateName, ConnectionStateView } from '../../shared/ipc/views/connection';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import { isCertificateReason, type TransportReason } from '../../shared/transport-reasons';
import type { Clock } from '../platform/clock';

/** What one merchant answer (or its absence) said, as the request sender saw it. */
export type MerchantObservation =
  /** An answer of the interface: a success, or a business error (`code` set) of one request; `slowMs` when it was slow. */
  | { kind: 'answered'; httpStatus: number; code: number | null; requestId: string | null; retryAtMs: number | null; slowMs?: number | null }
  /** GET /account answered with this accessState; `slowMs` when the answer was slow. */
  | { kind: 'account'; accessState: string; requestId: string | null; slowMs?: number | null }
  /** A request still unanswered after `elapsedMs` (past the slow threshold). */
  | { kind: 'pending'; elapsedMs: number }
  /** No answer: `connected` when a connection had been made before it failed. */
  | { kind: 'transport'; reason: TransportReason; connected: boolean; requestId: string | null }
  /** An answer that is not the interface (an HTML error page, broken JSON). */
  | { kind: 'malformed'; httpStatus: number; requestId: string | null };

export const REFUSAL_STATES: ReadonlySet<ConnectionStateName> = new Set(['keyRefused', 'suspended', 'ipDenied']);
/** States in which background workers stop and one probe decides when they resume. */
export const UNREACHABLE_STATES: ReadonlySet<ConnectionStateName> = new Set(['offline', 'certificate', 'degraded']);

export function isRefusalState(state: ConnectionStateName): boolean {
  return REFUSAL_STATES.has(state);
}

/** Whether background workers stop and the reach probe decides: unreachable or failing, not merely slow. */
export function holdsBackWork(view: Pick<ConnectionStateView, 'state' | 'slowMs'>): boolean {
  return UNREACHABLE_STATES.has(view.state) && view.slowMs === null;
}

/** Whether the merchant answers now, perhaps slowly: online, or degraded by slowness alone. */
export function isAnswering(view: Pick<ConnectionStateView, 'state' | 'slowMs'>): boolean {
  return view.state === 'online' || (view.state === 'degraded' && view.slowMs !== null);
}

/** The state before anything was asked of this connection's merchant. */
export function initialConnectionState(): ConnectionStateView {
  return { state: 'online', since: null, lastSuccessAt: null, merchantCode: null, requestId: null, httpStatus: null, transportReason: null, retryAtMs: null, slowMs: null };
}

/** The view before a merchant is set up or after its key was cleared. */
export function notConnectedState(): ConnectionStateView {
  return { ...initialConnectionState(), state: 'notConnected' };
}

type Target = Pick<ConnectionStateView, 'state' | 'merchantCode' | 'httpStatus' | 'transportReason' | 'retryAtMs' | 'slowMs'>;

function transportState(reason: TransportReason, connected: boolean): ConnectionStateName {
  if (isCertificateReason(reason)) return 'certificate';
  if (reason === 'timeout' || reason === 'tooLarge') return 'degraded';
  if (reason === 'reset') return connected ? 'degraded' : 'offline';
  // dns, refused, unreachable, insecure: nothing at that address answers us.
  return 'offline';
}

/** The state one observation points to on its own; null when it says nothing about the connection. */
function targetOf(observation: MerchantObservation, current: ConnectionStateView): Target | null {
  const none = { merchantCode: null, httpStatus: null, transportReason: null, retryAtMs: null, slowMs: null };
  // The merchant answered, but slowly: struggling, though work goes on.
  const answering = (slowMs: number | null | undefined): Target => (slowMs === null || slowMs === undefined ? { ...none, state: 'online' } : { ...none, state: 'degraded', slowMs });
  switch (observation.kind) {
    case 'account':
      if (observation.accessState === 'suspended') return { ...none, state: 'suspended', merchantCode: MERCHANT_ERROR.CREDENTIAL_SUSPENDED };
      return answering(observation.slowMs);
    case 'pending':
      // Only news while the merchant seemed fine: an outage or an error state says more than a wait.
      return isAnswering(current) ? { ...none, state: 'degraded', slowMs: Math.max(observation.elapsedMs, current.slowMs ?? 0) } : null;
    case 'transport':
      return { ...none, state: transportState(observation.reason, observation.connected), transportReason: observation.reason };
    case 'malformed':
      return observation.httpStatus >= 500 ? { ...none, state: 'degraded', httpStatus: observation.httpStatus } : null;
    case 'answered': {
      const { httpStatus, code } = observation;
      const detail = { ...none, merchantCode: code === 0 ? null : code, httpStatus: httpStatus === 200 ? null : httpStatus };
      if (httpStatus === 401) return { ...detail, state: 'keyRefused' };
      if (httpStatus === 403) {
        const state = code === MERCHANT_ERROR.CREDENTIAL_SUSPENDED ? 'suspended' : code === MERCHANT_ERROR.SOURCE_IP_DENIED ? 'ipDenied' : 'keyRefused';
        return { ...detail, state };
      }
      if ((httpStatus === 429 && code === MERCHANT_ERROR.RATE_LIMITED) || httpStatus >= 500) return { ...detail, state: 'degraded', retryAtMs: observation.retryAtMs };
      // A success, or a refusal of this one request (balance, stock, validation, one order's
      // cooldown 4291xx): the merchant is there (slowly, when slowMs says so).
      return answering(observation.slowMs);
    }
  }
}

/** The state after `observation`, by the rules at the top of this file. `nowMs` is the client clock. */
export function nextConnectionState(current: ConnectionStateView, observation: MerchantObservation, nowMs: number): ConnectionStateView {
  const nowS = Math.floor(nowMs / 1000);
  const isSuccess = (observation.kind === 'answered' && observation.httpStatus === 200 && observation.code === 0) || observation.kind === 'account';
  const lastSuccessAt = isSuccess ? nowS : current.lastSuccessAt;
  const target = targetOf(observation, current);
  if (target === null) return { ...current, lastSuccessAt };
  if (isRefusalState(current.state)) {
    const keyRefused = current.state === 'keyRefused' && current.httpStatus === 401;
    // Only a new key lifts a refused key; a 403 refusal ends when GET /account answers again.
    if (keyRefused) return { ...current, lastSuccessAt };
    const lifts = observation.kind === 'account' || (isRefusalState(target.state) && observation.kind === 'answered');
    if (!lifts) return { ...current, lastSuccessAt };
  }
  const same = target.state === current.state && current.since !== null;
  // A request still waiting has no answer, so no requestId of its own.
  const requestId = observation.kind === 'pending' ? null : observation.requestId;
  return { ...target, since: same ? current.since : nowS, lastSuccessAt, requestId: requestId ?? (same ? current.requestId : null) };
}

export interface ConnectionStateMachine {
  view(): ConnectionStateView;
  /** Client-clock ms of the latest observation (an answer, a failure, a request still waiting); null before any. */
  lastObservedAtMs(): number | null;
  observe(observation: MerchantObservation): void;
  /** Called when the state, or what explains it (code, status, reason, Retry-After), changed. Returns the unsubscribe. */
  onChange(listener: (view: ConnectionStateView) => void): () => void;
}

/** Whole seconds of a slow answer: what the banner says, so a few ms more push nothing. */
const slowSeconds = (view: ConnectionStateView): number | null => (view.slowMs === null ? null : Math.floor(view.slowMs / 1000));

/** Whether the buyer would see a difference: not every request is pushed, only transitions. */
function differs(a: ConnectionStateView, b: ConnectionStateView): boolean {
  return a.state !== b.state || a.merchantCode !== b.merchantCode || a.httpStatus !== b.httpStatus || a.transportReason !== b.transportReason || a.retryAtMs !== b.retryAtMs || slowSeconds(a) !== slowSeconds(b);
}

export function createConnectionStateMachine(clock: Clock): ConnectionStateMachine {
  let current = initialConnectionState();
  let observedAtMs: number | null = null;
  const listeners = new Set<(view: ConnectionStateView) => void>();
  return {
    view: () => current,
    lastObservedAtMs: () => observedAtMs,
    observe(observation) {
      observedAtMs = clock.nowMs();
      const next = nextConnectionState(current, observation, observedAtMs);
      const changed = differs(current, next);
      current = next;
      if (!changed) return;
      for (const listener of listeners) listener(next);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
