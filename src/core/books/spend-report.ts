// Spend at a glance: the one home of what counts as spend (contract §12.3). The dashboard, its
// exports and `cli report spend` all read this report, so they always agree.
//
// The rules:
// - Spend is what the merchant charged: the total of every order it accepted (a row in `orders` exists
//   only for an order the merchant holds). Intents it never accepted (queued, unknown, rejected,
//   withdrawn) charged nothing and are not here.
// - Refunds are the merchant's refundedAmount of those orders: money given back for a failure or a
//   cancel (in full) and for refunds that succeeded. A pending or rejected refund gave nothing back.
//   Net = charged − refunded; a refund is never spend, and never counted twice.
// - Every figure belongs to the local day the order was created (the merchant's createdAt in the
//   buyer's time zone), so a day's net is what that day's orders finally cost, and the days add up
//   to the range.
// - Success rate: completed / (completed + failed + cancelled + refunded). Orders still pending,
//   processing or verifying are not settled and stay out; a state this app does not know is never a
//   success and is counted apart (unknownState), outside the rate.
// - Time to delivery: createdAt → completedAt of completed orders, the median (robust to one slow
//   order); unknown when no order in the set completed.
import type { Database } from 'better-sqlite3';
import { classifyOrderState } from '../../shared/merchant/known-values';
import { MAX_SPEND_RANGE_DAYS, type SpendDay, type SpendGroup, type SpendQuery, type SpendReport, type SpendTotals } from '../../shared/ipc/views/books';
import { balanceObservations, type BalanceOwner } from './balance-history';
import { daysBetween, nextDay, startOfLocalDay } from './local-days';

interface OrderFact {
  readonly created_at: number;
  readonly completed_at: number | null;
  readonly state: string;
  readonly total_fen: number;
  readonly refunded_fen: number;
  readonly product_ref: number;
  readonly product_type: string | null;
  readonly product_name: string | null;
  readonly catalog_ref: number | null;
  readonly category_name: string | null;
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

/** Refunded never above charged (a merchant saying so is capped, so net is never negative). */
const refundedOf = (o: OrderFact): number => Math.min(Math.max(o.refunded_fen, 0), o.total_fen);

const deliverySeconds = (o: OrderFact): number | null => (outcomeOf(o.state) === 'completed' && o.completed_at !== null && o.completed_at >= o.created_at ? o.completed_at - o.created_at : null);

interface Tally {
  orders: number;
  chargedFen: number;
  refundedFen: number;
}

const emptyTally = (): Tally => ({ orders: 0, chargedFen: 0, refundedFen: 0 });

function add(tally: Tally, o: OrderFact): void {
  tally.orders += 1;
  tally.chargedFen += o.total_fen;
  tally.refundedFen += refundedOf(o);
}

const money = (t: Tally): { orders: number; chargedFen: number; refundedFen: number; netFen: number } => ({ ...t, netFen: t.chargedFen - t.refundedFen });

/** The orders created within [fromMs, toMs), with their product and category as cached. */
function readOrders(db: Database, fromMs: number, toMs: number): OrderFact[] {
  return db
    .prepare<[number, number], OrderFact>(
      `SELECT o.created_at, o.completed_at, o.state, o.total_fen, o.refunded_fen, o.product_ref,
              coalesce(o.product_type, p.product_type) AS product_type, coalesce(o.product_name, p.name) AS product_name,
              p.catalog_ref, c.name AS category_name
         FROM orders o
         LEFT JOIN products p ON p.product_ref = o.product_ref
         LEFT JOIN categories c ON c.catalog_ref = p.catalog_ref
        WHERE o.created_at >= ? AND o.created_at < ?
        ORDER BY o.created_at, o.rowid`,
    )
    .all(Math.ceil(fromMs / 1000), Math.ceil(toMs / 1000));
}

function matches(o: OrderFact, query: SpendQuery): boolean {
  if (query.catalogRef !== undefined && o.catalog_ref !== query.catalogRef) return false;
  if (query.productRef !== undefined && o.product_ref !== query.productRef) return false;
  if (query.productType !== undefined && o.product_type !== query.productType) return false;
  return true;
}

function groupBy(orders: readonly OrderFact[], keyOf: (o: OrderFact) => number | null, nameOf: (o: OrderFact) => string | null): SpendGroup[] {
  const groups = new Map<number | null, { tally: Tally; name: string | null }>();
  for (const o of orders) {
    const key = keyOf(o);
    const group = groups.get(key) ?? { tally: emptyTally(), name: nameOf(o) };
    add(group.tally, o);
    group.name ??= nameOf(o);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .map(([key, g]) => ({ key, name: g.name, ...money(g.tally) }))
    .sort((a, b) => b.netFen - a.netFen || b.chargedFen - a.chargedFen || (a.key ?? -1) - (b.key ?? -1));
}

function totalsOf(orders: readonly OrderFact[]): SpendTotals {
  const tally = emptyTally();
  const outcomes: Record<Outcome, number> = { completed: 0, unsuccessful: 0, inProgress: 0, unknownState: 0 };
  const delivery: number[] = [];
  for (const o of orders) {
    add(tally, o);
    outcomes[outcomeOf(o.state)] += 1;
    const seconds = deliverySeconds(o);
    if (seconds !== null) delivery.push(seconds);
  }
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

function daysOf(orders: readonly OrderFact[], days: readonly string[], timeZone: string): SpendDay[] {
  // Each day's start once (the zone's rules), then every order by a binary search: no time-zone
  // formatting per order, which dominated a report of many orders.
  const starts = days.map((day) => startOfLocalDay(timeZone, day));
  const byDay: OrderFact[][] = days.map(() => []);
  for (const o of orders) byDay[dayIndex(starts, o.created_at * 1000)]?.push(o);
  return days.map((day, index) => {
    const t = totalsOf(byDay[index] ?? []);
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
  const all = readOrders(db, fromMs, toMs);
  const orders = all.filter((o) => matches(o, query));
  const observations = owner === null ? [] : balanceObservations(db, owner, fromMs, toMs - 1);
  const choices = (groups: SpendGroup[]) => groups.filter((g): g is SpendGroup & { key: number } => g.key !== null).map((g) => ({ key: g.key, name: g.name }));
  return {
    query,
    fromMs,
    toMs,
    totals: totalsOf(orders),
    days: daysOf(orders, days, query.timeZone),
    byCategory: groupBy(orders, (o) => o.catalog_ref, (o) => o.category_name),
    byProduct: groupBy(orders, (o) => o.product_ref, (o) => o.product_name),
    balance: observations.map((b) => ({ fromMs: b.firstSeenAtMs, toMs: b.lastSeenAtMs, balanceFen: b.balanceFen, currency: b.currency })),
    choices: {
      categories: choices(groupBy(all, (o) => o.catalog_ref, (o) => o.category_name)),
      products: choices(groupBy(all, (o) => o.product_ref, (o) => o.product_name)),
    },
  };
}
