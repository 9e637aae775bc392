// Named operations on aftersale_tracking (0009): what only this app knows about a case. A case without
// a row (it came by webhook) has read and notified nothing and is due for a poll now. Positions are
// 0006's message positions, the merchant's own order, so "after the last read" means exactly the
// messages that arrived since the buyer last had the chat open.
import type { Database } from 'better-sqlite3';

export interface CaseSchedule {
  readonly platformCaseRef: string;
  readonly state: string;
  readonly unchangedPolls: number;
}

export interface UnnotifiedMessage {
  readonly platformCaseRef: string;
  readonly clientOrderRef: string;
  readonly messageRef: string;
  readonly text: string;
  readonly images: number;
  readonly position: number;
  /** The buyer already had the chat open past it: no notification needed. */
  readonly alreadyRead: boolean;
}

export function ensureTracking(db: Database, platformCaseRef: string): void {
  db.prepare('INSERT INTO aftersale_tracking (platform_case_ref) VALUES (?) ON CONFLICT (platform_case_ref) DO NOTHING').run(platformCaseRef);
}

export function schedulePoll(db: Database, platformCaseRef: string, nextPollAt: number | null, unchangedPolls: number, polledAt: number | null): void {
  db.prepare(
    `INSERT INTO aftersale_tracking (platform_case_ref, next_poll_at, unchanged_polls, last_polled_at) VALUES (@ref, @next, @unchanged, @polled)
     ON CONFLICT (platform_case_ref) DO UPDATE SET next_poll_at = excluded.next_poll_at, unchanged_polls = excluded.unchanged_polls,
       last_polled_at = coalesce(excluded.last_polled_at, aftersale_tracking.last_polled_at)`,
  ).run({ ref: platformCaseRef, next: nextPollAt, unchanged: unchangedPolls, polled: polledAt });
}

export function readSchedule(db: Database, platformCaseRef: string): CaseSchedule | null {
  const row = db
    .prepare<[string], { platform_case_ref: string; state: string; unchanged_polls: number | null }>(
      `SELECT c.platform_case_ref, c.state, t.unchanged_polls FROM aftersale_cases c
       LEFT JOIN aftersale_tracking t ON t.platform_case_ref = c.platform_case_ref WHERE c.platform_case_ref = ?`,
    )
    .get(platformCaseRef);
  return row === undefined ? null : { platformCaseRef: row.platform_case_ref, state: row.state, unchangedPolls: row.unchanged_polls ?? 0 };
}

// Not resolved or closed (DONE_CASE_STATES), so unknown states are polled too.
const POLLED = `c.state NOT IN ('resolved', 'closed')`;

export function casesDueForPoll(db: Database, now: number, limit: number): string[] {
  return db
    .prepare<[number, number], { ref: string }>(
      `SELECT c.platform_case_ref AS ref FROM aftersale_cases c LEFT JOIN aftersale_tracking t ON t.platform_case_ref = c.platform_case_ref
       WHERE ${POLLED} AND coalesce(t.next_poll_at, 0) <= ? ORDER BY coalesce(t.next_poll_at, 0), c.platform_case_ref LIMIT ?`,
    )
    .all(now, limit)
    .map((row) => row.ref);
}

export function nextPollAt(db: Database): number | null {
  return (
    db
      .prepare<[], { at: number | null }>(
        `SELECT min(coalesce(t.next_poll_at, 0)) AS at FROM aftersale_cases c LEFT JOIN aftersale_tracking t ON t.platform_case_ref = c.platform_case_ref WHERE ${POLLED}`,
      )
      .get()?.at ?? null
  );
}

/** Webhooks stopped arriving: open cases planned far out (the rare pace) are looked at by `at` instead. */
export function pullInPolls(db: Database, at: number): number {
  return db.prepare('UPDATE aftersale_tracking SET next_poll_at = ?, unchanged_polls = 0 WHERE next_poll_at > ?').run(at, at).changes;
}

/** The buyer has the chat open: everything stored so far is read (and needs no notification any more). */
export function markCaseRead(db: Database, platformCaseRef: string, now: number): void {
  db.prepare(
    `INSERT INTO aftersale_tracking (platform_case_ref, read_position, read_at, notified_position)
       SELECT @ref, p.last, @now, p.last FROM (SELECT coalesce(max(position), -1) AS last FROM aftersale_messages WHERE platform_case_ref = @ref) p
       WHERE true -- an upsert after a SELECT needs a WHERE, or SQLite reads ON as a join's
     ON CONFLICT (platform_case_ref) DO UPDATE SET read_position = max(aftersale_tracking.read_position, excluded.read_position),
       read_at = excluded.read_at, notified_position = max(aftersale_tracking.notified_position, excluded.read_position)`,
  ).run({ ref: platformCaseRef, now });
}

/** Messages from the merchant's side (anyone but the buyer) past the case's notified position. */
export function unnotifiedMessages(db: Database): UnnotifiedMessage[] {
  return db
    .prepare<
      [],
      { platform_case_ref: string; client_order_ref: string; message_ref: string; text: string; images: number; position: number; read_position: number }
    >(
      `SELECT m.platform_case_ref, c.client_order_ref, m.message_ref, m.text, json_array_length(m.images_json) AS images, m.position,
              coalesce(t.read_position, -1) AS read_position
       FROM aftersale_messages m JOIN aftersale_cases c ON c.platform_case_ref = m.platform_case_ref
       LEFT JOIN aftersale_tracking t ON t.platform_case_ref = m.platform_case_ref
       WHERE m.sender <> 'buyer' AND m.position > coalesce(t.notified_position, -1)
       ORDER BY m.platform_case_ref, m.position`,
    )
    .all()
    .map((row) => ({
      platformCaseRef: row.platform_case_ref,
      clientOrderRef: row.client_order_ref,
      messageRef: row.message_ref,
      text: row.text,
      images: row.images,
      position: row.position,
      alreadyRead: row.position <= row.read_position,
    }));
}

/** Notified up to `position`; never moves back. */
export function markNotified(db: Database, platformCaseRef: string, position: number): void {
  db.prepare(
    `INSERT INTO aftersale_tracking (platform_case_ref, notified_position) VALUES (?, ?)
     ON CONFLICT (platform_case_ref) DO UPDATE SET notified_position = max(aftersale_tracking.notified_position, excluded.notified_position)`,
  ).run(platformCaseRef, position);
}
