// Desk 0001: the merchant profiles (issue 17, contract §15.1). The desk database (desk.sqlite in the
// data folder) is the registry above the profiles' own databases: which profiles exist, where each
// one's folder is, under which prefix its secrets are kept, which one is active.
// - id: p1, p2, … from a counter that never goes back, so a removed profile's id, folder and secrets
//   can never be mistaken for a new one's.
// - folder: '' for the data folder itself (the first profile: the single connection of earlier
//   versions lives there and stays there), otherwise profiles/<id>.
// - secret_prefix: '' for the first profile (its key and vault key keep the names they always had),
//   otherwise profile.<id>. in front of every name.
// - name_key: the name compared without case and spaces (shared/profile-name.ts), unique.
import type { Migration } from '../../db/migration';

export const profilesMigration: Migration = {
  id: 1,
  name: 'profiles',
  sql: `
CREATE TABLE profiles (
  id TEXT PRIMARY KEY CHECK (id GLOB 'p[0-9a-z]*'),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 160),
  name_key TEXT NOT NULL UNIQUE,
  folder TEXT NOT NULL UNIQUE,
  secret_prefix TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE desk_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
`,
};
