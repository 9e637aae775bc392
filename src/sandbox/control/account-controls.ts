// Control of member accounts: creation, suspension, IP allow-list, default callback, balance, key reset.
import { fenToYuanText } from '../../shared/money';
import type { Account } from '../domain/account-store';
import type { Merchant } from '../domain/merchant';
import { ControlError, readYuan, type ControlBody } from './control-error';

export const DEFAULT_BALANCE_FEN = 1_000_000;

function accountView(account: Account): Record<string, unknown> {
  return {
    userId: account.userId,
    accountRef: account.accountRef,
    suspended: account.suspended,
    ipAllowList: account.ipAllowList,
    defaultCallbackUrl: account.defaultCallbackUrl,
    balance: fenToYuanText(account.balanceFen),
  };
}

export function findAccount(merchant: Merchant, userId: string): Account {
  const account = merchant.ctx.accounts.byUserId(userId);
  if (!account) throw new ControlError(404, `no account ${userId}`);
  return account;
}

export function createAccount(merchant: Merchant, body: ControlBody): Record<string, unknown> {
  const balance = body['balance'] === undefined ? DEFAULT_BALANCE_FEN : readYuan(body['balance'], 'balance');
  const account = merchant.ctx.accounts.create(balance);
  return { userId: account.userId, apiKey: account.apiKey };
}

export function updateAccount(merchant: Merchant, userId: string, body: ControlBody): Record<string, unknown> {
  const account = findAccount(merchant, userId);
  const { suspended, ipAllowList, defaultCallbackUrl, balance } = body;
  if (suspended !== undefined && typeof suspended !== 'boolean') throw new ControlError(400, 'suspended must be a boolean');
  if (ipAllowList !== undefined && ipAllowList !== null && !(Array.isArray(ipAllowList) && ipAllowList.every((ip) => typeof ip === 'string'))) {
    throw new ControlError(400, 'ipAllowList must be an array of addresses or null');
  }
  if (defaultCallbackUrl !== undefined && defaultCallbackUrl !== null && typeof defaultCallbackUrl !== 'string') {
    throw new ControlError(400, 'defaultCallbackUrl must be a string or null');
  }
  const balanceFen = balance === undefined ? undefined : readYuan(balance, 'balance');
  if (typeof suspended === 'boolean') account.suspended = suspended;
  if (ipAllowList !== undefined) account.ipAllowList = ipAllowList === null ? null : (ipAllowList);
  if (defaultCallbackUrl !== undefined) account.defaultCallbackUrl = defaultCallbackUrl;
  if (balanceFen !== undefined) account.balanceFen = balanceFen;
  return accountView(account);
}

export function rotateKey(merchant: Merchant, userId: string): Record<string, unknown> {
  return { apiKey: merchant.ctx.accounts.rotateKey(findAccount(merchant, userId)) };
}

export function ledger(merchant: Merchant, userId: string): Record<string, unknown> {
  const account = findAccount(merchant, userId);
  return {
    balance: fenToYuanText(account.balanceFen),
    entries: account.ledger.map((e) => ({ kind: e.kind, clientOrderRef: e.clientOrderRef, amount: fenToYuanText(e.amountFen), at: e.at })),
  };
}
