// 0006 after-sales cache and inbox retry (the case chat of 0009 builds on it).
//
// Why it looks like this:
// - webhook_inbox_retries: when a processing that failed (merchant unreachable, 5xx) is due again;
//   it is tried later with backoff, never dropped. No row means "due now". A table of its own rather
//   than a column, so the 0004 table stays exactly as it shipped; the row goes with its event.
// - aftersale_cases / aftersale_messages hold what the authenticated GET /aftersales/{ref} returned
//   (contract §9.3): an aftersale.message.created webhook is only a hint to fetch it (interface v1 §6.4.8).
//   message_ref is the primary key, so a message is appended once however often it is seen (spec
//   6.4.1); a case row never moves back to an older updated_at. Images and actions are JSON arrays.
// - No foreign key to orders: a case may name an order placed outside this app (same account).
import type { Migration } from '../migration';

export const aftersaleCacheAndInboxRetryMigration: Migration = {
  id: 6,
  name: 'aftersale-cache-and-inbox-retry',
  sql: `
CREATE TABLE webhook_inbox_retries (
  event_id TEXT PRIMARY KEY REFERENCES webhook_inbox (event_id) ON DELETE CASCADE,
  next_attempt_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_inbox_retries_due ON webhook_inbox_retries (next_attempt_at);

CREATE TABLE aftersale_cases (
  platform_case_ref TEXT PRIMARY KEY CHECK (length(platform_case_ref) > 0),
  client_order_ref TEXT NOT NULL,
  platform_order_ref TEXT NOT NULL,
  category TEXT NOT NULL,
  description TEXT NOT NULL,
  images_json TEXT NOT NULL CHECK (json_valid(images_json) AND json_type(images_json) = 'array'),
  state TEXT NOT NULL,
  allowed_actions_json TEXT NOT NULL CHECK (json_valid(allowed_actions_json) AND json_type(allowed_actions_json) = 'array'),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL
) STRICT;
CREATE INDEX aftersale_cases_order ON aftersale_cases (client_order_ref);

CREATE TABLE aftersale_messages (
  message_ref TEXT PRIMARY KEY CHECK (length(message_ref) > 0),
  platform_case_ref TEXT NOT NULL REFERENCES aftersale_cases (platform_case_ref) ON DELETE CASCADE,
  client_message_ref TEXT,
  sender TEXT NOT NULL,
  text TEXT NOT NULL,
  images_json TEXT NOT NULL CHECK (json_valid(images_json) AND json_type(images_json) = 'array'),
  created_at INTEGER NOT NULL,
  position INTEGER NOT NULL CHECK (position >= 0),
  received_at INTEGER NOT NULL
) STRICT;
CREATE INDEX aftersale_messages_case ON aftersale_messages (platform_case_ref, position);
CREATE UNIQUE INDEX aftersale_messages_client_ref ON aftersale_messages (platform_case_ref, client_message_ref)
  WHERE client_message_ref IS NOT NULL;
`,
};
