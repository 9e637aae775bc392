// Member accounts of the merchant: credentials, suspension, IP allow-list, the default callback
// address the member saves in the merchant's front end, and the balance with its ledger.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface LedgerEntry {
  kind: 'charge' | 'refund';
  clientOrderRef: string;
  amountFen: number;
  at: number;
}

export interface Account {
  accountRef: number;
  userId: string;
  apiKey: string;
  nickname: string;
  suspended: boolean;
  ipAllowList: string[] | null;
  defaultCallbackUrl: string | null;
  balanceFen: number;
  ledger: LedgerEntry[];
}

export const API_KEY_FORMAT = /^AK_[0-9a-f]{32}$/;

export function generateApiKey(): string {
  return `AK_${randomBytes(16).toString('hex')}`;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class AccountStore {
  private readonly byUser = new Map<string, Account>();
  private readonly byRef = new Map<number, Account>();
  private nextRef = 70001;

  create(balanceFen: number): Account {
    const accountRef = this.nextRef++;
    const account: Account = {
      accountRef,
      userId: String(100000 + accountRef),
      apiKey: generateApiKey(),
      nickname: `采购会员${accountRef}`,
      suspended: false,
      ipAllowList: null,
      defaultCallbackUrl: null,
      balanceFen,
      ledger: [],
    };
    this.byUser.set(account.userId, account);
    this.byRef.set(account.accountRef, account);
    return account;
  }

  byAccountRef(accountRef: number): Account | undefined {
    return this.byRef.get(accountRef);
  }

  byUserId(userId: string): Account | undefined {
    return this.byUser.get(userId);
  }

  all(): Account[] {
    return [...this.byUser.values()];
  }

  /** The account these credentials belong to, or null without saying which part was wrong. */
  authenticate(userId: string, apiKey: string): Account | null {
    if (!API_KEY_FORMAT.test(apiKey)) return null;
    const account = this.byUser.get(userId);
    return account && sameSecret(account.apiKey, apiKey) ? account : null;
  }

  /** A reset key: the old one stops working at once (interface v1 §5.4). */
  rotateKey(account: Account): string {
    account.apiKey = generateApiKey();
    return account.apiKey;
  }

  charge(account: Account, clientOrderRef: string, amountFen: number, at: number): void {
    account.balanceFen -= amountFen;
    account.ledger.push({ kind: 'charge', clientOrderRef, amountFen, at });
  }

  refund(account: Account, clientOrderRef: string, amountFen: number, at: number): void {
    account.balanceFen += amountFen;
    account.ledger.push({ kind: 'refund', clientOrderRef, amountFen, at });
  }
}
