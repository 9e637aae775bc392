// 0004 settings and events: non-secret settings and the durable webhook inbox (interface v1 §6.4).
//
// Why it looks like this:
// - settings is key → JSON for what the user configures that is NOT a secret (merchant base URL,
//   user id, custom CA path, polling preferences). The API key lives in the OS secret store only;
//   a CHECK refuses the obvious key names as a last line of defence against a careless caller.
// - webhook_inbox is written and committed before the receiver answers "OK" (within 3 s), then
//   processed afterwards; event_id as primary key is the dedupe of interface v1 §6.4.1, so a retried
//   delivery is stored once and processed once. body_json is the body WITHOUT card_list: an
//   order.credentials.ready body's cards go, sealed by the vault, into sealed_payload (with the
//   key that sealed them), so plain card secrets never reach the database or its WAL.
// - outcome is free text chosen by the processor ("applied", "ignoredStale", "failed: …"); event
//   types are kept raw, so an unknown kind is stored and reported rather than refused.
import type { Migration } from '../migration';

export const settingsAndEventsMigration: Migration = {
  id: 4,
  name: 'settings-and-events',
  sql: `
CREATE TABLE settings (
  key TEXT PRIMARY KEY
    CHECK (lower(key) NOT IN ('apikey', 'api_key', 'servicekey', 'service_key', 'x-service-key', 'key', 'secret', 'password')),
  value_json TEXT NOT NULL CHECK (json_valid(value_json)),
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE webhook_inbox (
  event_id TEXT PRIMARY KEY,
  event_type TEXT NOT NULL,
  occurred_at INTEGER,
  received_at INTEGER NOT NULL,
  body_json TEXT NOT NULL
    CHECK (json_valid(body_json) AND coalesce(json_type(body_json, '$.card_list'), 'null') = 'null'),
  sealed_payload BLOB,
  key_id TEXT REFERENCES vault_keys (key_id) ON DELETE RESTRICT,
  processed_at INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  outcome TEXT,
  CHECK ((sealed_payload IS NULL) = (key_id IS NULL))
) STRICT;
CREATE INDEX webhook_inbox_pending ON webhook_inbox (received_at) WHERE processed_at IS NULL;
`,
};
