// Spend at a glance (contract §12.3). The dashboard, its exports and `cli report spend` all read this
// report, so they always agree; its money comes from book-money.ts, as reconciliation's does (§12.4).
//
// The rules:
// - Charged and refunded are the books' entries (book-money.ts): an order's charge (what the merchant
//   first charged) on the day it was created, a refund on the day the money came back. The app's own
//   orders and the foreign ones recorded from reconciliation count alike; intents the merchant never
//   accepted charged nothing. Net = charged − refunded; a refund is never spend, never counted twice.
// - Order counts, outcomes and delivery times belong to the local day the order was created.
// - Success rate: completed / (completed + failed + cancelled + refunded). Orders still pending,
//   processing or verifying are not settled and stay out; a state this app does not know is never a
//   success and is counted apart (unknownState), outside the rate.
// - Time to delivery: createdAt → completedAt of completed orders, the median (robust to one slow
//   order); unknown when no order in the set completed.
import type { Database } from 'better-sqlite3';
import { classifyOrderState } from '../../shared/merchant/known-values';
import { MAX_SPEND_RANGE_DAYS, type SpendDay, type SpendGroup, type SpendQuery, type SpendReport, type SpendTotals } from '../../shared/ipc/views/books';
import { balanceObservations, type BalanceOwner } from './balance-history';
import { bookMoney, type MoneyEntry } from './book-money';
import { daysBetween, nextDay, startOfLocalDay } from './local-days';

interface OrderFact {
  readonly created_at: number;
  readonly completed_at: number | null;
  readonly state: string;
  readonly product_ref: number | null;
  readonly product_type: string | null;
  readonly product_name: string | null;
  readonly catalog_ref: number | null;
  readonly category_name: string | null;
  /** Created in the range: counted as an order (its money counts by its entries, whenever they fall). */
  readonly inRange: boolean;
}

/** The money of the range (book-money.ts entries) with the order each belongs to. */
interface Money {
  readonly entry: MoneyEntry;
  readonly order: OrderFact;
}

type Outcome = 'completed' | 'unsuccessful' | 'inProgress' | 'unknownState';

/** Where an order's state puts it for the success rate (unknown states never count as success). */
export function outcomeOf(state: string): Outcome {
  const c = classifyOrderState(state);
  if (c.kind === 'unknown') return 'unknownState';
  if (c.value === 'completed') return 'completed';
  if (c.value === 'failed' || c.value === 'cancelled' || c.value === 'refunded') return 'unsuccessful';
  return 'inProgress';
}

/** The median of a list of numbers; null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const deliverySeconds = (o: OrderFact): number | null => (outcomeOf(o.state) === 'completed' && o.completed_at !== null && o.completed_at >= o.created_at ? o.completed_at - o.created_at : null);

interface Tally {
  orders: number;
  chargedFen: number;
  refundedFen: number;
}

const emptyTally = (): Tally => ({ orders: 0, chargedFen: 0, refundedFen: 0 });

function addMoney(tally: Tally, m: Money): void {
  if (m.entry.kind === 'charge') tally.chargedFen += m.entry.amountFen;
  else tally.refundedFen += m.entry.amountFen;
}

const money = (t: Tally): { orders: number; chargedFen: number; refundedFen: number; netFen: number } => ({ ...t, netFen: t.chargedFen - t.refundedFen });

/** The range's money and orders (book-money.ts: the one definition), with product and category as cached. */
function readBooks(db: Database, owner: BalanceOwner | null, fromMs: number, toMs: number): { orders: OrderFact[]; money: Money[] } {
  const fromSec = Math.ceil(fromMs / 1000);
  const toSec = Math.ceil(toMs / 1000) - 1;
  const books = bookMoney(db, owner, fromSec, toSec);
  const catalog = db.prepare<[number], { catalog_ref: number | null; name: string | null; product_type: string | null; category_name: string | null }>(
    'SELECT p.catalog_ref, p.name, p.product_type, c.name AS category_name FROM products p LEFT JOIN categories c ON c.catalog_ref = p.catalog_ref WHERE p.product_ref = ?',
  );
  const facts = new Map<string, OrderFact>();
  for (const o of books.orders.values()) {
    const product = o.productRef === null ? undefined : catalog.get(o.productRef);
    facts.set(o.clientOrderRef, {
      created_at: o.createdAt,
      completed_at: o.completedAt,
      state: o.state,
      product_ref: o.productRef,
      product_type: o.productType ?? product?.product_type ?? null,
      product_name: o.productName ?? product?.name ?? null,
      catalog_ref: product?.catalog_ref ?? null,
      category_name: product?.category_name ?? null,
      inRange: o.createdAt >= fromSec && o.createdAt <= toSec,
    });
  }
  const orders = [...facts.values()].sort((a, b) => a.created_at - b.created_at);
  const moneyOf = books.entries.flatMap((entry) => {
    const order = facts.get(entry.clientOrderRef);
    return order === undefined ? [] : [{ entry, order }];
  });
  return { orders, money: moneyOf };
}

function matches(o: OrderFact, query: SpendQuery): boolean {
  if (query.catalogRef !== undefined && o.catalog_ref !== query.catalogRef) return false;
  if (query.productRef !== undefined && o.product_ref !== query.productRef) return false;
  if (query.productType !== undefined && o.product_type !== query.productType) return false;
  return true;
}

interface Books {
  /** Orders created in the range (counted), and the others whose money falls in it. */
  readonly orders: readonly OrderFact[];
  readonly money: readonly Money[];
}

function groupBy(books: Books, keyOf: (o: OrderFact) => number | null, nameOf: (o: OrderFact) => string | null): SpendGroup[] {
  const groups = new Map<number | null, { tally: Tally; name: string | null }>();
  const groupOf = (o: OrderFact): { tally: Tally; name: string | null } => {
    const key = keyOf(o);
    const group = groups.get(key) ?? { tally: emptyTally(), name: nameOf(o) };
    group.name ??= nameOf(o);
    groups.set(key, group);
    return group;
  };
  for (const o of books.orders) if (o.inRange) groupOf(o).tally.orders += 1;
  for (const m of books.money) addMoney(groupOf(m.order).tally, m);
  return [...groups.entries()]
    .map(([key, g]) => ({ key, name: g.name, ...money(g.tally) }))
    .sort((a, b) => b.netFen - a.netFen || b.chargedFen - a.chargedFen || (a.key ?? -1) - (b.key ?? -1));
}

function totalsOf(books: Books): SpendTotals {
  const tally = emptyTally();
  const outcomes: Record<Outcome, number> = { completed: 0, unsuccessful: 0, inProgress: 0, unknownState: 0 };
  const delivery: number[] = [];
  for (const o of books.orders) {
    if (!o.inRange) continue;
    tally.orders += 1;
    outcomes[outcomeOf(o.state)] += 1;
    const seconds = deliverySeconds(o);
    if (seconds !== null) delivery.push(seconds);
  }
  for (const m of books.money) addMoney(tally, m);
  const settled = outcomes.completed + outcomes.unsuccessful;
  return { ...money(tally), ...outcomes, successRate: settled === 0 ? null : outcomes.completed / settled, medianDeliverySeconds: median(delivery) };
}

/** The index of the day an instant falls in, by the days' start instants (ascending); -1 before the first. */
function dayIndex(starts: readonly number[], atMs: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((starts[mid] ?? Number.POSITIVE_INFINITY) <= atMs) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

function daysOf(books: Books, days: readonly string[], timeZone: string): SpendDay[] {
  // Each day's start once (the zone's rules), then every order and entry by a binary search: no
  // time-zone formatting per order, which dominated a report of many orders.
  const starts = days.map((day) => startOfLocalDay(timeZone, day));
  const byDay: { orders: OrderFact[]; money: Money[] }[] = days.map(() => ({ orders: [], money: [] }));
  for (const o of books.orders) if (o.inRange) byDay[dayIndex(starts, o.created_at * 1000)]?.orders.push(o);
  for (const m of books.money) byDay[dayIndex(starts, m.entry.at * 1000)]?.money.push(m);
  return days.map((day, index) => {
    const t = totalsOf(byDay[index] ?? { orders: [], money: [] });
    return { day, orders: t.orders, chargedFen: t.chargedFen, refundedFen: t.refundedFen, netFen: t.netFen, completed: t.completed, unsuccessful: t.unsuccessful, unknownState: t.unknownState, medianDeliverySeconds: t.medianDeliverySeconds };
  });
}

/** The range's instants: [first day's start, the day after the last day's start). Throws LocalDayError. */
export function spendRange(query: Pick<SpendQuery, 'from' | 'to' | 'timeZone'>): { days: string[]; fromMs: number; toMs: number } {
  const days = daysBetween(query.from, query.to, MAX_SPEND_RANGE_DAYS);
  return { days, fromMs: startOfLocalDay(query.timeZone, query.from), toMs: startOfLocalDay(query.timeZone, nextDay(query.to)) };
}

/**
 * The report for a range and filters. `owner` names whose balance history to draw (null: not
 * connected, no balance). Throws LocalDayError for a bad day, range or time zone.
 */
export function spendReport(db: Database, query: SpendQuery, owner: BalanceOwner | null): SpendReport {
  const { days, fromMs, toMs } = spendRange(query);
  const all = readBooks(db, owner, fromMs, toMs);
  const books: Books = { orders: all.orders.filter((o) => matches(o, query)), money: all.money.filter((m) => matches(m.order, query)) };
  const observations = owner === null ? [] : balanceObservations(db, owner, fromMs, toMs - 1);
  const choices = (groups: SpendGroup[]) => groups.filter((g): g is SpendGroup & { key: number } => g.key !== null).map((g) => ({ key: g.key, name: g.name }));
  return {
    query,
    fromMs,
    toMs,
    totals: totalsOf(books),
    days: daysOf(books, days, query.timeZone),
    byCategory: groupBy(books, (o) => o.catalog_ref, (o) => o.category_name),
    byProduct: groupBy(books, (o) => o.product_ref, (o) => o.product_name),
    balance: observations.map((b) => ({ fromMs: b.firstSeenAtMs, toMs: b.lastSeenAtMs, balanceFen: b.balanceFen, currency: b.currency })),
    choices: {
      categories: choices(groupBy(all, (o) => o.catalog_ref, (o) => o.category_name)),
      products: choices(groupBy(all, (o) => o.product_ref, (o) => o.product_name)),
    },
  };
}
