// Every migration of the desk database (desk.sqlite), in application order. Append only, like core's
// own list (db/migrations): a change is a new file with the next id.
import type { Migration } from '../../db/migration';
import { profilesMigration } from './0001-profiles';
import { linksMigration } from './0002-links';
import { nameSourceMigration } from './0003-name-source';

export const deskMigrations: readonly Migration[] = [profilesMigration, linksMigration, nameSourceMigration];
