// Order endpoints (contract §7).
import { orderToWire } from '../domain/order-records';
import { paginate } from '../http/envelope';
import { queryInt, queryRef, readPaging } from '../http/input-readers';
import type { Route } from './route';
import { param } from './route';

export const orderRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/orders\/create$/,
    group: 'orderCreate',
    handle: ({ merchant, account, body }) => orderToWire(merchant.creation.create(account, body), true),
  },
  {
    method: 'GET',
    pattern: /^\/orders$/,
    group: 'orderRead',
    handle: ({ merchant, account, query }) => {
      const { page, pageSize } = readPaging(query);
      const orders = merchant.orders.list(account.accountRef, {
        state: query.get('state') || null,
        productRef: queryRef(query, 'productRef'),
        createdFrom: queryInt(query, 'createdFrom', null),
        createdTo: queryInt(query, 'createdTo', null),
      });
      return paginate(orders, page, pageSize, (o) => orderToWire(o, false));
    },
  },
  {
    method: 'GET',
    pattern: /^\/orders\/([^/]+)$/,
    group: 'orderRead',
    handle: (c) => orderToWire(c.merchant.orders.get(c.account.accountRef, param(c, 0)), true),
  },
  {
    method: 'POST',
    pattern: /^\/orders\/([^/]+)\/verification-code$/,
    group: 'verification',
    cooldown: 'verification',
    handle: (c) => orderToWire(c.merchant.actions.submitVerificationCode(c.merchant.orders.get(c.account.accountRef, param(c, 0)), c.body), true),
  },
  {
    method: 'POST',
    pattern: /^\/orders\/([^/]+)\/cancel$/,
    group: 'orderAction',
    cooldown: 'cancel',
    handle: (c) => orderToWire(c.merchant.actions.cancel(c.merchant.orders.get(c.account.accountRef, param(c, 0)), c.body), true),
  },
  {
    method: 'POST',
    pattern: /^\/orders\/([^/]+)\/refunds$/,
    group: 'orderAction',
    cooldown: 'refund',
    handle: (c) => orderToWire(c.merchant.actions.requestRefund(c.merchant.orders.get(c.account.accountRef, param(c, 0)), c.body), true),
  },
];
