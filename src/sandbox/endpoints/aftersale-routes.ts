// After-sales endpoints (contract §9).
import { caseToWire, messageToWire } from '../domain/aftersale-desk';
import type { Route } from './route';
import { param } from './route';

export const aftersaleRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/aftersales$/,
    group: 'aftersaleWrite',
    handle: ({ merchant, account, body }) => caseToWire(merchant.aftersales.open(account, body)),
  },
  {
    method: 'GET',
    pattern: /^\/aftersales\/([^/]+)$/,
    group: 'aftersaleRead',
    handle: (c) => caseToWire(c.merchant.aftersales.get(c.account, param(c, 0))),
  },
  {
    method: 'POST',
    pattern: /^\/aftersales\/([^/]+)\/messages$/,
    group: 'aftersaleWrite',
    handle: (c) => messageToWire(c.merchant.aftersales.addBuyerMessage(c.account, param(c, 0), c.body)),
  },
];
