// The balance as the merchant told it, over time (table balance_history, migration 0018). Every
// GET /account answer of a connection is recorded here by its merchant client (merchant-services.ts),
// whoever asked: the connect test, the balance shown after an order or a sync, the worker probe. The
// books read it: reconciliation for the balance at a range's start and end, the dashboard for the
// balance over time.
//
// A row is a run of equal answers (first and last seen); a new row starts when the balance or the
// currency differs from the previous answer's. Between two rows the balance changed at a moment nobody
// saw, which readers must say rather than guess.
import type { Database } from 'better-sqlite3';

/** Whose balance: the merchant (address and user ID) and the account the answer named. */
export interface BalanceOwner {
  readonly baseUrl: string;
  readonly userId: string;
}

export interface BalanceObservation {
  readonly accountRef: number;
  readonly currency: string;
  readonly balanceFen: number;
  readonly firstSeenAtMs: number;
  readonly lastSeenAtMs: number;
  /** How many answers said this balance in a row. */
  readonly answers: number;
  /** The request ID of the first of them, when the merchant gave one. */
  readonly requestId: string | null;
}

export interface BalanceAnswer {
  readonly accountRef: number;
  readonly balanceFen: number;
  readonly currency: string;
  readonly requestId: string | null;
}

interface Row {
  id: number;
  account_ref: number;
  currency: string;
  balance_fen: number;
  first_seen_at_ms: number;
  last_seen_at_ms: number;
  answers: number;
  request_id: string | null;
}

const COLUMNS = 'id, account_ref, currency, balance_fen, first_seen_at_ms, last_seen_at_ms, answers, request_id';

const toObservation = (row: Row): BalanceObservation => ({
  accountRef: row.account_ref,
  currency: row.currency,
  balanceFen: row.balance_fen,
  firstSeenAtMs: row.first_seen_at_ms,
  lastSeenAtMs: row.last_seen_at_ms,
  answers: row.answers,
  requestId: row.request_id,
});

/**
 * Records one answer: extends the latest row when it says the same (account, currency, balance),
 * starts a new one otherwise. An answer older than the latest row (two requests answered out of
 * order) only widens that row when equal and is otherwise dropped: the newer answer stands.
 */
export function recordBalance(db: Database, owner: BalanceOwner, answer: BalanceAnswer, atMs: number): void {
  db.transaction(() => {
    const latest = db
      .prepare<[string, string], Row>(`SELECT ${COLUMNS} FROM balance_history WHERE base_url = ? AND user_id = ? ORDER BY last_seen_at_ms DESC, id DESC LIMIT 1`)
      .get(owner.baseUrl, owner.userId);
    const same = latest !== undefined && latest.account_ref === answer.accountRef && latest.currency === answer.currency && latest.balance_fen === answer.balanceFen;
    if (latest !== undefined && same) {
      db.prepare('UPDATE balance_history SET last_seen_at_ms = max(last_seen_at_ms, ?), answers = answers + 1 WHERE id = ?').run(atMs, latest.id);
      return;
    }
    if (latest !== undefined && atMs < latest.last_seen_at_ms) return;
    db.prepare(
      'INSERT INTO balance_history (base_url, user_id, account_ref, currency, balance_fen, first_seen_at_ms, last_seen_at_ms, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(owner.baseUrl, owner.userId, answer.accountRef, answer.currency, answer.balanceFen, atMs, atMs, answer.requestId);
  })();
}

/**
 * The observations that tell the balance within [fromMs, toMs]: every row seen inside it, and the last
 * row seen before it (the balance the range started from, as far as anyone knows), oldest first.
 */
export function balanceObservations(db: Database, owner: BalanceOwner, fromMs: number, toMs: number): BalanceObservation[] {
  const before = db
    .prepare<[string, string, number], Row>(`SELECT ${COLUMNS} FROM balance_history WHERE base_url = ? AND user_id = ? AND first_seen_at_ms < ? ORDER BY first_seen_at_ms DESC, id DESC LIMIT 1`)
    .get(owner.baseUrl, owner.userId, fromMs);
  const inside = db
    .prepare<[string, string, number, number], Row>(
      `SELECT ${COLUMNS} FROM balance_history WHERE base_url = ? AND user_id = ? AND first_seen_at_ms >= ? AND first_seen_at_ms <= ? ORDER BY first_seen_at_ms, id`,
    )
    .all(owner.baseUrl, owner.userId, fromMs, toMs);
  return [...(before ? [before] : []), ...inside].map(toObservation);
}

/** What is known of the balance at one moment: the run that covers it, or the runs either side of it. */
export type BalanceAt =
  | { readonly kind: 'seen'; readonly observation: BalanceObservation }
  | { readonly kind: 'between'; readonly before: BalanceObservation | null; readonly after: BalanceObservation | null };

export function balanceAt(db: Database, owner: BalanceOwner, atMs: number): BalanceAt {
  const before = db
    .prepare<[string, string, number], Row>(`SELECT ${COLUMNS} FROM balance_history WHERE base_url = ? AND user_id = ? AND first_seen_at_ms <= ? ORDER BY first_seen_at_ms DESC, id DESC LIMIT 1`)
    .get(owner.baseUrl, owner.userId, atMs);
  if (before !== undefined && before.last_seen_at_ms >= atMs) return { kind: 'seen', observation: toObservation(before) };
  const after = db
    .prepare<[string, string, number], Row>(`SELECT ${COLUMNS} FROM balance_history WHERE base_url = ? AND user_id = ? AND first_seen_at_ms > ? ORDER BY first_seen_at_ms, id LIMIT 1`)
    .get(owner.baseUrl, owner.userId, atMs);
  return { kind: 'between', before: before ? toObservation(before) : null, after: after ? toObservation(after) : null };
}
