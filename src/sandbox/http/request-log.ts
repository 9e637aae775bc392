// What the OpenAPI answered, request by request (GET /control/requests): method, path, the order's
// clientOrderRef when the request names one (a create's body, an order path), HTTP status and
// requestId, so a test counts the creates of one order at the merchant instead of trusting the app.
// Bounded: the newest MAX_ENTRIES are kept.

export interface RequestSeen {
  method: string;
  path: string;
  clientOrderRef: string | null;
  status: number;
  requestId: string;
  atMs: number;
}

export interface RequestLog {
  record(entry: RequestSeen): void;
  /** Oldest first; only `path` (exact) and `clientOrderRef` when given. */
  list(filter: { path?: string | null; clientOrderRef?: string | null }): RequestSeen[];
}

const MAX_ENTRIES = 20_000;

export function createRequestLog(): RequestLog {
  const entries: RequestSeen[] = [];
  return {
    record(entry) {
      entries.push(entry);
      if (entries.length > MAX_ENTRIES) entries.splice(0, entries.length - MAX_ENTRIES);
    },
    list: ({ path, clientOrderRef }) =>
      entries
        .filter((e) => (path === null || path === undefined || e.path === path) && (clientOrderRef === null || clientOrderRef === undefined || e.clientOrderRef === clientOrderRef))
        .map((e) => ({ ...e })),
  };
}

/** The clientOrderRef a request names: the create's body or the path /orders/{ref}[/…]. */
export function orderRefOf(path: string, raw: Buffer | 'tooLarge'): string | null {
  try {
    if (path === '/orders/create') {
      const body: unknown = raw === 'tooLarge' || raw.length === 0 ? null : JSON.parse(raw.toString('utf8'));
      const ref = typeof body === 'object' && body !== null && 'clientOrderRef' in body ? body.clientOrderRef : null;
      return typeof ref === 'string' ? ref : null;
    }
    const match = /^\/orders\/([^/]+)/.exec(path);
    return match?.[1] === undefined ? null : decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}
