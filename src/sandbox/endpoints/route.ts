// One interface endpoint: how it is matched, which quota group it counts against, and its handler.
import type { Account } from '../domain/account-store';
import type { Merchant } from '../domain/merchant';
import type { JsonObject } from '../http/request-body';
import type { CooldownKind, QuotaGroup } from '../limits/quota-rules';

export interface RouteContext {
  merchant: Merchant;
  account: Account;
  query: URLSearchParams;
  body: JsonObject;
  /** Decoded path parameters, in order. */
  params: string[];
}

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  group: QuotaGroup;
  /** A per-order cooldown keyed by the first path parameter (interface v1 §8). */
  cooldown?: CooldownKind;
  /** Only GET /account answers a suspended account (interface v1 §3.3). */
  allowWhenSuspended?: boolean;
  handle(context: RouteContext): unknown;
}

export function param(context: RouteContext, index: number): string {
  const value = context.params[index];
  if (value === undefined) throw new Error(`route has no parameter ${index}`);
  return value;
}
