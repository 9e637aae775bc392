// 0014 order drafts: the review step's reference for the order the buyer confirmed (draft_ref, made
// by the screen when it froze the order) → the intent written for it. A place call that is sent again
// — a second click that got through, a host that answered after the window gave up, a renderer that
// retried over a reconnected socket — finds the intent already written and answers it, instead of
// writing a second intent with a second clientOrderRef (a second order, a second charge).
//
// Why it looks like this:
// - A table of its own rather than a column of order_intents: the intents table is rebuilt by other
//   migrations for its status list; this mapping never changes shape with it.
// - draft_ref has the clientOrderRef alphabet and 16..64 characters (the screen makes 22 random
//   base64url characters); each maps to exactly one intent and each intent has at most one draft.
import type { Migration } from '../migration';

export const orderDraftsMigration: Migration = {
  id: 14,
  name: 'order-drafts',
  sql: `
CREATE TABLE order_drafts (
  draft_ref TEXT PRIMARY KEY
    CHECK (length(draft_ref) BETWEEN 16 AND 64 AND draft_ref NOT GLOB '*[^A-Za-z0-9_-]*'),
  client_order_ref TEXT NOT NULL UNIQUE REFERENCES order_intents (client_order_ref) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
) STRICT;
`,
};
