// 0009 after-sales outbox, open intents and tracking for the case chat (0006 holds the merchant's cases).
//
// Why it looks like this:
// - aftersale_outbox: a buyer message, written with a freshly generated client_message_ref BEFORE
//   the first send and reused with the same text and images on every retry and after a restart
//   (contract §9.2: the same ref with the same content returns the original message, appends
//   nothing). Our state machine, so a CHECK lists it:
//     queued → sending → sent | retrying | failed;  retrying → sending …
//   'sending' found at start-up means "a request may have left": it is sent again, which is safe.
//   message_ref is the merchant's once it accepted (and only then). The merchant's copy in
//   aftersale_messages is matched by (case, client_message_ref), so a sent message is shown once.
// - aftersale_open_intents: a case create whose outcome is not known yet (timeout, 5xx, crash). There
//   is no list of cases (contract §9), so the only way to find a case whose answer was lost is to send
//   the same create again (contract §9.1: returns the open case). One row per order; gone once the
//   outcome is known.
// - aftersale_tracking: what only this app knows about a case: how far the buyer has read and how far
//   notifications went (message positions of 0006, which follow the merchant's order), and when to
//   poll its detail again. Cases come from our creates, webhooks and refreshes, so a missing row means
//   "nothing read, nothing notified, due now". Cases already stored (by webhooks, before this migration) start
//   as notified, so upgrading does not raise one notification per old message; they stay unread.
// - No foreign key to orders, as in 0006: a case may name an order placed outside this app.
import type { Migration } from '../migration';

export const aftersaleOutboxAndReadsMigration: Migration = {
  id: 9,
  name: 'aftersale-outbox-and-reads',
  sql: `
CREATE TABLE aftersale_outbox (
  client_message_ref TEXT PRIMARY KEY
    CHECK (length(client_message_ref) BETWEEN 1 AND 64 AND client_message_ref NOT GLOB '*[^A-Za-z0-9_-]*'),
  platform_case_ref TEXT NOT NULL REFERENCES aftersale_cases (platform_case_ref) ON DELETE CASCADE,
  text TEXT NOT NULL,
  images_json TEXT NOT NULL CHECK (json_valid(images_json) AND json_type(images_json) = 'array'),
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'retrying', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_attempt_at INTEGER,
  next_attempt_at INTEGER,
  last_error_code TEXT,
  last_error_message TEXT,
  last_request_id TEXT,
  message_ref TEXT,
  sent_created_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK ((status = 'sent') = (message_ref IS NOT NULL))
) STRICT;
CREATE INDEX aftersale_outbox_due ON aftersale_outbox (next_attempt_at, created_at) WHERE status IN ('queued', 'sending', 'retrying');
CREATE INDEX aftersale_outbox_case ON aftersale_outbox (platform_case_ref, created_at);

CREATE TABLE aftersale_open_intents (
  client_order_ref TEXT PRIMARY KEY CHECK (length(client_order_ref) > 0),
  category TEXT NOT NULL,
  description TEXT NOT NULL,
  images_json TEXT NOT NULL CHECK (json_valid(images_json) AND json_type(images_json) = 'array'),
  status TEXT NOT NULL CHECK (status IN ('sending', 'unknown')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_attempt_at INTEGER,
  next_attempt_at INTEGER,
  last_error_code TEXT,
  last_request_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE aftersale_tracking (
  platform_case_ref TEXT PRIMARY KEY REFERENCES aftersale_cases (platform_case_ref) ON DELETE CASCADE,
  read_position INTEGER NOT NULL DEFAULT -1 CHECK (read_position >= -1),
  read_at INTEGER,
  notified_position INTEGER NOT NULL DEFAULT -1 CHECK (notified_position >= -1),
  next_poll_at INTEGER,
  unchanged_polls INTEGER NOT NULL DEFAULT 0 CHECK (unchanged_polls >= 0),
  last_polled_at INTEGER
) STRICT;
CREATE INDEX aftersale_tracking_next_poll ON aftersale_tracking (next_poll_at) WHERE next_poll_at IS NOT NULL;

INSERT INTO aftersale_tracking (platform_case_ref, notified_position)
  SELECT c.platform_case_ref, coalesce((SELECT max(m.position) FROM aftersale_messages m WHERE m.platform_case_ref = c.platform_case_ref), -1)
  FROM aftersale_cases c;
`,
};
