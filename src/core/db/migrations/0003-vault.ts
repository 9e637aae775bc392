// 0003 vault: card credentials sealed at rest, the wrapped data keys, and the audit trail.
//
// Why it looks like this:
// - Each secret (card_no, card_password) is one sealed BLOB (nonce ‖ AES-256-GCM ciphertext ‖ tag;
//   the layout is owned by core/vault), sealed with associated data naming the record (order ref,
//   seq, field) so a blob copied onto another row fails to open. The columns are BLOB in a STRICT
//   table: a plain-text string written by mistake is rejected by SQLite itself.
// - cards reference order_intents, not orders: order.credentials.ready can arrive before the create
//   response has been stored, and the intent always exists first. ON DELETE RESTRICT: nothing may
//   silently drop delivered credentials. UNIQUE (client_order_ref, seq) makes a second delivery
//   (webhook and order detail, or a webhook retry) a no-op.
// - vault_keys holds the data key only as wrapped by the secret-store port (safeStorage, or scrypt
//   from a passphrase on Node); key_id on each card allows rotation without re-sealing at once.
// - audit_log is append-only (triggers refuse UPDATE and DELETE): an editable trail is no trail.
//   It records who saw what and how many, never a secret: no column could hold one by design
//   (subject is a reference, detail is free text that callers must keep secret-free).
import type { Migration } from '../migration';

export const vaultMigration: Migration = {
  id: 3,
  name: 'vault',
  sql: `
CREATE TABLE vault_keys (
  key_id TEXT PRIMARY KEY,
  wrapped_key BLOB NOT NULL,
  wrap_scheme TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  retired_at INTEGER
) STRICT;

CREATE TABLE cards (
  id INTEGER PRIMARY KEY,
  client_order_ref TEXT NOT NULL REFERENCES order_intents (client_order_ref) ON DELETE RESTRICT,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  key_id TEXT NOT NULL REFERENCES vault_keys (key_id) ON DELETE RESTRICT,
  card_no_sealed BLOB NOT NULL,
  card_password_sealed BLOB,
  expires_at INTEGER,
  received_at INTEGER NOT NULL,
  source TEXT NOT NULL,
  used_at INTEGER,
  exported_at INTEGER,
  UNIQUE (client_order_ref, seq)
) STRICT;
CREATE INDEX cards_received ON cards (received_at);
CREATE INDEX cards_key ON cards (key_id);

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  action TEXT NOT NULL,
  subject TEXT NOT NULL,
  card_count INTEGER NOT NULL DEFAULT 0 CHECK (card_count >= 0),
  format TEXT,
  detail TEXT
) STRICT;
CREATE INDEX audit_log_at ON audit_log (at);

CREATE TRIGGER audit_log_no_update
BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER audit_log_no_delete
BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
`,
};
