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
//   before any connection) is "offline".
// A malformed answer below 500 says nothing about the connection and leaves the state as it was.
import type { ConnectionStateName, ConnectionStateView } from '../../shared/ipc/views/connection';
import { MERCHANT_ERROR } from '../../shared/merchant-error-codes';
import { isCertificateReason, type TransportReason } from '../../shared/transport-reasons';
import type { Clock } from '../platform/clock';

/** What one merchant answer (or its absence) said, as the request sender saw it. */
export type MerchantObservation =
  /** An answer of the interface: a success, or a business error (`code` set) of one request. */
  | { kind: 'answered'; httpStatus: number; code: number | null; requestId: string | null; retryAtMs: number | null }
  /** GET /account answered with this accessState. */
  | { kind: 'account'; accessState: string; requestId: string | null }
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

/** The state before anything was asked of this connection's merchant. */
export function initialConnectionState(): ConnectionStateView {
  return { state: 'online', since: null, lastSuccessAt: null, merchantCode: null, requestId: null, httpStatus: null, transportReason: null, retryAtMs: null };
}

/** The view before a merchant is set up or after its key was cleared. */
export function notConnectedState(): ConnectionStateView {
  return { ...initialConnectionState(), state: 'notConnected' };
}

type Target = Pick<ConnectionStateView, 'state' | 'merchantCode' | 'httpStatus' | 'transportReason' | 'retryAtMs'>;

function transportState(reason: TransportReason, connected: boolean): ConnectionStateName {
  if (isCertificateReason(reason)) return 'certificate';
  if (reason === 'timeout' || reason === 'tooLarge') return 'degraded';
  if (reason === 'reset') return connected ? 'degraded' : 'offline';
  // dns, refused, unreachable, insecure: nothing at that address answers us.
  return 'offline';
}

/** The state one observation points to on its own; null when it says nothing about the connection. */
function targetOf(observation: MerchantObservation): Target | null {
  const none = { merchantCode: null, httpStatus: null, transportReason: null, retryAtMs: null };
  switch (observation.kind) {
    case 'account':
      return { ...none, state: observation.accessState === 'suspended' ? 'suspended' : 'online', merchantCode: observation.accessState === 'suspended' ? MERCHANT_ERROR.CREDENTIAL_SUSPENDED : null };
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
      // cooldown 4291xx): the merchant is there.
      return { ...none, state: 'online' };
    }
  }
}

/** The state after `observation`, by the rules at the top of this file. `nowMs` is the client clock. */
export function nextConnectionState(current: ConnectionStateView, observation: MerchantObservation, nowMs: number): ConnectionStateView {
  const nowS = Math.floor(nowMs / 1000);
  const isSuccess = (observation.kind === 'answered' && observation.httpStatus === 200 && observation.code === 0) || observation.kind === 'account';
  const lastSuccessAt = isSuccess ? nowS : current.lastSuccessAt;
  const target = targetOf(observation);
  if (target === null) return { ...current, lastSuccessAt };
  if (isRefusalState(current.state)) {
    const keyRefused = current.state === 'keyRefused' && current.httpStatus === 401;
    // Only a new key lifts a refused key; a 403 refusal ends when GET /account answers again.
    if (keyRefused) return { ...current, lastSuccessAt };
    const lifts = observation.kind === 'account' || (isRefusalState(target.state) && observation.kind === 'answered');
    if (!lifts) return { ...current, lastSuccessAt };
  }
  const same = target.state === current.state && current.since !== null;
  return { ...target, since: same ? current.since : nowS, lastSuccessAt, requestId: observation.requestId ?? (same ? current.requestId : null) };
}

export interface ConnectionStateMachine {
  view(): ConnectionStateView;
  observe(observation: MerchantObservation): void;
  /** Called when the state, or what explains it (code, status, reason, Retry-After), changed. Returns the unsubscribe. */
  onChange(listener: (view: ConnectionStateView) => void): () => void;
}

/** Whether the buyer would see a difference: not every request is pushed, only transitions. */
function differs(a: ConnectionStateView, b: ConnectionStateView): boolean {
  return a.state !== b.state || a.merchantCode !== b.merchantCode || a.httpStatus !== b.httpStatus || a.transportReason !== b.transportReason || a.retryAtMs !== b.retryAtMs;
}

export function createConnectionStateMachine(clock: Clock): ConnectionStateMachine {
  let current = initialConnectionState();
  const listeners = new Set<(view: ConnectionStateView) => void>();
  return {
    view: () => current,
    observe(observation) {
      const next = nextConnectionState(current, observation, clock.nowMs());
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
