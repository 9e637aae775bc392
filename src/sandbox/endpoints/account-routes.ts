// GET /account and GET /categories (contract §1 and 2).
import { fenToYuanNumber } from '../../shared/money';
import { categoryToWire } from '../domain/catalog-wire';
import { paginate } from '../http/envelope';
import { readPaging } from '../http/input-readers';
import type { Route } from './route';

export const CONTRACT_REVISION = '1.0.2';

export const accountRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/account$/,
    group: 'account',
    allowWhenSuspended: true,
    handle: ({ account }) => ({
      accountRef: account.accountRef,
      userId: account.userId,
      nickname: account.nickname,
      accessState: account.suspended ? 'suspended' : 'active',
      balance: fenToYuanNumber(account.balanceFen),
      currency: 'CNY',
      contractRevision: CONTRACT_REVISION,
    }),
  },
  {
    method: 'GET',
    pattern: /^\/categories$/,
    group: 'account',
    handle: ({ merchant, query }) => {
      const { page, pageSize } = readPaging(query);
      return paginate(merchant.ctx.catalog.categoriesInUse(), page, pageSize, (entry) => categoryToWire(entry.category, entry.productCount));
    },
  },
];
