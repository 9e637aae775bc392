// Desk 0002: the buyer's links between merchants' variants and the fallback rule a link may carry
// (issue 17, contract §15.4). A link is a set of variants, each named by its profile and the
// merchant's own refs, that the buyer says are the same thing to buy; it lives here, above the
// profiles, because it spans them.
// - link_members: a variant belongs to at most one link (its key is the primary key); linking two
//   variants of different links merges them (link-store.ts). Removing a profile drops its members
//   (the foreign key, and desk.ts remove, which also drops the links left with one member).
// - link_rules: at most one rule per link: the price limit in fen and the merchants to fall back to,
//   in order (link_rule_preferences, one row per merchant, position 0 first). A rule is only ever
//   the buyer's explicit choice; without one nothing is ordered elsewhere unasked.
// - batch_fallbacks: a batch the rule sent to another merchant (the batch itself is that profile's,
//   0020 in its own database), so its status keeps saying from where, to where and why. The names are
//   those at the time (a profile renamed since shows its new name; a removed one its old).
import type { Migration } from '../../db/migration';

export const linksMigration: Migration = {
  id: 2,
  name: 'links',
  sql: `
CREATE TABLE links (
  link_id INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE link_members (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  product_ref INTEGER NOT NULL CHECK (product_ref > 0),
  variant_ref INTEGER NOT NULL CHECK (variant_ref >= 0),
  link_id INTEGER NOT NULL REFERENCES links (link_id) ON DELETE CASCADE,
  added_at INTEGER NOT NULL,
  PRIMARY KEY (profile_id, product_ref, variant_ref)
) STRICT;
CREATE INDEX link_members_link ON link_members (link_id);

CREATE TABLE link_rules (
  link_id INTEGER PRIMARY KEY REFERENCES links (link_id) ON DELETE CASCADE,
  max_unit_price_fen INTEGER NOT NULL CHECK (max_unit_price_fen > 0),
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE link_rule_preferences (
  link_id INTEGER NOT NULL REFERENCES link_rules (link_id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  PRIMARY KEY (link_id, position),
  UNIQUE (link_id, profile_id)
) STRICT;

CREATE TABLE batch_fallbacks (
  batch_id TEXT PRIMARY KEY,
  from_profile_id TEXT NOT NULL,
  from_name TEXT NOT NULL,
  to_profile_id TEXT NOT NULL,
  to_name TEXT NOT NULL,
  reason TEXT NOT NULL,
  limit_fen INTEGER NOT NULL CHECK (limit_fen > 0),
  product_ref INTEGER NOT NULL,
  variant_ref INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
`,
};
