// Every endpoint of interface v1 §4, in matching order.
import { ApiError } from '../http/api-error';
import { accountRoutes } from './account-routes';
import { aftersaleRoutes } from './aftersale-routes';
import { catalogRoutes } from './catalog-routes';
import { orderRoutes } from './order-routes';
import type { Route } from './route';

export const ROUTES: readonly Route[] = [...accountRoutes, ...catalogRoutes, ...orderRoutes, ...aftersaleRoutes];

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    // A broken %-escape cannot name any resource; without this it would surface as a 500.
    throw new ApiError('INVALID_PUBLIC_REFERENCE', 'a path reference is not validly encoded');
  }
}

export function matchRoute(method: string, path: string): { route: Route; params: string[] } | null {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1).map(decodeParam) };
  }
  return null;
}
