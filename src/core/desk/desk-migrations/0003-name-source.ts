// Desk 0003: who gave a profile its name (issue 26, contract §15.1). The app names the first merchant
// from its account (the nickname, else the API host) or, before any account answered, by a fallback
// the screens word in the app's language ("商户 1" / "Merchant 1"); the buyer's own name is never
// replaced. Before this the registry did not say who named a profile: the only name the app ever gave
// without an address was "Merchant 1", and only to the first profile (folder ''), so exactly that row
// is taken as the app's; every other name, "Merchant 1" on any other profile included, is the buyer's.
import type { Migration } from '../../db/migration';

export const nameSourceMigration: Migration = {
  id: 3,
  name: 'name source',
  sql: `
ALTER TABLE profiles ADD COLUMN name_source TEXT NOT NULL DEFAULT 'buyer' CHECK (name_source IN ('buyer', 'account', 'fallback'));
UPDATE profiles SET name_source = 'fallback' WHERE folder = '' AND name = 'Merchant 1';
`,
};
