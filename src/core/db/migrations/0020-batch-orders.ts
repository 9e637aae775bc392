// 0020 batch orders from files (issue 16, contract §13):
// - batch_column_maps: the column mapping a buyer last used for a product (target → header text),
//   proposed again for the next file of that product.
// - batches: one confirmed batch. draft_ref is the confirm step's reference (like order_drafts, 0014):
//   placing the same confirmation again answers the batch already written, never a second one. The
//   file itself is not kept (its cells may be top-up accounts, which are sealed once recharged); its
//   sha256 ties a retry or a results export to the same file.
// - batch_rows: which intent a row of the file became. A row has one current ref; a retry that needs
//   a new ref (the merchant holds an order under the old one: it failed after it was created) retires
//   the old row entry (retired_at) and adds the new one, so the file's row keeps its whole history.
import type { Migration } from '../migration';

export const batchOrdersMigration: Migration = {
  id: 20,
  name: 'batch-orders',
  sql: `
CREATE TABLE batch_column_maps (
  product_ref INTEGER PRIMARY KEY,
  map_json TEXT NOT NULL CHECK (json_valid(map_json) AND json_type(map_json) = 'object'),
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE batches (
  batch_id TEXT PRIMARY KEY CHECK (length(batch_id) BETWEEN 1 AND 64 AND batch_id NOT GLOB '*[^A-Za-z0-9_-]*'),
  draft_ref TEXT NOT NULL UNIQUE CHECK (length(draft_ref) BETWEEN 16 AND 64 AND draft_ref NOT GLOB '*[^A-Za-z0-9_-]*'),
  product_ref INTEGER NOT NULL,
  variant_ref INTEGER NOT NULL,
  file_name TEXT NOT NULL,
  file_sha256 TEXT NOT NULL CHECK (length(file_sha256) = 64),
  file_format TEXT NOT NULL CHECK (file_format IN ('csv', 'xlsx')),
  map_json TEXT NOT NULL CHECK (json_valid(map_json)),
  default_units INTEGER CHECK (default_units IS NULL OR default_units > 0),
  confirmed_unit_price_fen INTEGER NOT NULL CHECK (confirmed_unit_price_fen > 0),
  row_count INTEGER NOT NULL CHECK (row_count >= 0),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE batch_rows (
  batch_id TEXT NOT NULL REFERENCES batches (batch_id) ON DELETE CASCADE,
  row_number INTEGER NOT NULL CHECK (row_number > 0),
  client_order_ref TEXT NOT NULL UNIQUE REFERENCES order_intents (client_order_ref) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  retired_at INTEGER,
  PRIMARY KEY (batch_id, client_order_ref)
) STRICT;
CREATE UNIQUE INDEX batch_rows_current ON batch_rows (batch_id, row_number) WHERE retired_at IS NULL;
`,
};
