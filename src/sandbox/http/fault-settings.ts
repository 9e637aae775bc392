// Fault switches of the control API (docs/sandbox.md): latency, error answers, dropped connections and
// a broken rate limiter, so that clients can be tested against a merchant having a bad day.

export interface FaultSettings {
  /** Real milliseconds added before every answer (it models the network, so it is not scaled). */
  latencyMs: number;
  errorRate: number;
  /** The answer of an injected error: 500001, 503001 (Retry-After 1) or 429001 quota exceeded (Retry-After 1). */
  errorStatus: 500 | 503 | 429;
  /** Share of requests processed and then left without an answer (connection closed). */
  dropRate: number;
  /**
   * When not empty, dropRate applies only to these endpoint paths (after /openapi/v1, e.g.
   * `/orders/create`): a client that reads before it writes can lose the write's answer alone.
   */
  dropPaths: string[];
  rateLimiterDown: boolean;
  /**
   * Endpoints that answer 500001 to every authenticated request, after the rate limiter and before
   * anything is done (nothing created, nothing charged): a merchant that always fails.
   */
  serverErrorOn: ServerErrorTarget[];
}

/** orderCreate: POST /orders/create; orderLookup: GET /orders/{clientOrderRef}. */
export const SERVER_ERROR_TARGETS = ['orderCreate', 'orderLookup'] as const;
export type ServerErrorTarget = (typeof SERVER_ERROR_TARGETS)[number];

/** Which serverErrorOn target a request is, if any. */
export function serverErrorTargetOf(method: string, path: string): ServerErrorTarget | null {
  if (method === 'POST' && path === '/orders/create') return 'orderCreate';
  if (method === 'GET' && /^\/orders\/[^/]+$/.test(path)) return 'orderLookup';
  return null;
}

export function noFaults(): FaultSettings {
  return { latencyMs: 0, errorRate: 0, errorStatus: 500, dropRate: 0, dropPaths: [], rateLimiterDown: false, serverErrorOn: [] };
}

export function chance(rate: number): boolean {
  return rate > 0 && Math.random() < rate;
}
