// Named operations on order_drafts (0014): which intent was written for a review step's draftRef.
// Used inside placeOrder's transaction, so "look up, else write intent and draft" is one step.
import type { Database } from 'better-sqlite3';

export function intentOfDraft(db: Database, draftRef: string): string | null {
  return db.prepare<[string], { client_order_ref: string }>('SELECT client_order_ref FROM order_drafts WHERE draft_ref = ?').get(draftRef)?.client_order_ref ?? null;
}

export function recordDraft(db: Database, draftRef: string, clientOrderRef: string, now: number): void {
  db.prepare('INSERT INTO order_drafts (draft_ref, client_order_ref, created_at) VALUES (?, ?, ?)').run(draftRef, clientOrderRef, now);
}
