// The sandbox's control API (docs/sandbox.md), as the e2e tests use it: fresh accounts, the hidden
// supply behaviour of variants, faults, and the ledger that proves an order was charged once. Every
// call carries the control token the host printed (test/support/control-auth.ts).
import { controlHeaders } from '../../support/control-auth';

export interface ControlVariant {
  variantRef: number;
  title: string;
  price: string;
  availability: string;
  inventoryType: string;
  remainingUnits: number | null;
  supply: 'succeed' | 'fail' | 'needsVerification';
  entryMode: string;
  unitRule: { min: number; max: number; step: number };
}

export interface ControlProduct {
  productRef: number;
  productType: string;
  name: string;
  availability: string;
  variants: ControlVariant[];
}

export interface Ledger {
  balance: string;
  entries: { kind: 'charge' | 'refund'; clientOrderRef: string; amount: string; at: number }[];
}

async function callWith<T>(controlToken: string, url: string, body?: unknown): Promise<T> {
  const method = body === undefined ? 'GET' : 'POST';
  const response = await fetch(url, {
    method,
    headers: controlHeaders(controlToken, method),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export { controlHeaders };

export function sandboxControl(controlUrl: string, controlToken: string) {
  const call = <T,>(url: string, body?: unknown): Promise<T> => callWith<T>(controlToken, url, body);
  return {
    createAccount: (balance?: string) => call<{ userId: string; apiKey: string }>(`${controlUrl}/control/accounts`, balance === undefined ? {} : { balance }),
    products: (limit = 500) => call<ControlProduct[]>(`${controlUrl}/control/products?limit=${limit}`),
    /** refuseConnections closes the listener ("offline"); tls serves an expired, other-host or untrusted certificate ("certificate"). */
    faults: (faults: {
      errorRate?: number;
      errorStatus?: 500 | 503 | 429;
      dropRate?: number;
      latencyMs?: number;
      rateLimiterDown?: boolean;
      refuseConnections?: boolean;
      tls?: 'valid' | 'expired' | 'otherHost' | 'untrusted';
      /** Endpoints that answer 500001 to every request, doing nothing ([] lifts it). */
      serverErrorOn?: ('orderCreate' | 'orderLookup')[];
    }) =>
      call<unknown>(`${controlUrl}/control/faults`, faults),
    /** What the OpenAPI answered, request by request (only `path` and `clientOrderRef` when given). */
    requests: (filter: { path?: string; clientOrderRef?: string } = {}) =>
      call<SeenRequest[]>(`${controlUrl}/control/requests?${new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined)).toString()}`),
    ledger: (userId: string) => call<Ledger>(`${controlUrl}/control/ledger/${encodeURIComponent(userId)}`),
    /** Sets an account's balance (yuan), as the merchant's back office would. */
    setBalance: (userId: string, balance: string) => call<unknown>(`${controlUrl}/control/accounts/${encodeURIComponent(userId)}`, { balance }),
    /** Changes a product as the merchant's back office would (price, stock, availability of a variant). */
    changeProduct: (productRef: number, change: { variantRef?: number; price?: string; remainingUnits?: number | null; availability?: string }) =>
      call<{ revision: number; changedProperties: string[] }>(`${controlUrl}/control/products/${productRef}`, change),
    /** Issues a new API key for the account; the old one is refused (401001) at once. */
    rotateKey: (userId: string) => call<{ apiKey: string }>(`${controlUrl}/control/accounts/${encodeURIComponent(userId)}/rotate-key`, {}),
    /** Sets the account's IP allow-list (403002 SOURCE_IP_DENIED from any other address); null lifts it. */
    setIpAllowList: (userId: string, ipAllowList: string[] | null) => call<unknown>(`${controlUrl}/control/accounts/${encodeURIComponent(userId)}`, { ipAllowList }),
    /** Suspends the account (403005 on everything but GET /account) or lifts the suspension. */
    setSuspended: (userId: string, suspended: boolean) => call<unknown>(`${controlUrl}/control/accounts/${encodeURIComponent(userId)}`, { suspended }),
    /** Moves an order as the merchant would (docs/sandbox.md); answers the order as the interface shows it. */
    advanceOrder: (clientOrderRef: string, to: string) =>
      call<{ platformOrderRef: string; state: string; refundedAmount: string }>(`${controlUrl}/control/orders/${encodeURIComponent(clientOrderRef)}/advance`, { to }),
    /** What the merchant received for an order (its create's content as kept): which codes were sent. */
    receivedOrder: (clientOrderRef: string) =>
      call<{ units: number; purchaseEntries: Record<string, string>[] }>(`${controlUrl}/control/orders/${encodeURIComponent(clientOrderRef)}/received`),
    /** Changes an order behind the buyer's back (no webhook, no ledger entry): its state, units, amount (yuan) or card count. */
    tamper: (clientOrderRef: string, change: { state?: string; units?: number; totalAmount?: string; cards?: number }) =>
      call<{ totalAmount: string; card_list: unknown[] | null }>(`${controlUrl}/control/orders/${encodeURIComponent(clientOrderRef)}/tamper`, change),
    /** An order placed with the account in the merchant's own shop (outside the OpenAPI): charged as any other. */
    shopOrder: (userId: string, order: { clientOrderRef: string; productRef: number; variantRef?: number; units: number }) =>
      call<{ clientOrderRef: string }>(`${controlUrl}/control/accounts/${encodeURIComponent(userId)}/orders`, order),
  };
}

export type SandboxControl = ReturnType<typeof sandboxControl>;

export interface SeenRequest {
  method: string;
  path: string;
  clientOrderRef: string | null;
  status: number;
  requestId: string;
  atMs: number;
}

/** Purchasable: the product and the variant both `available`, and stock left when it is counted. */
export function purchasable(product: ControlProduct, variant: ControlVariant): boolean {
  return product.availability === 'available' && variant.availability === 'available' && (variant.remainingUnits === null || variant.remainingUnits > 0);
}
