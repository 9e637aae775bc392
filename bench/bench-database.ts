// A migrated on-disk database in a temporary folder for benchmarks: the same openDatabase (WAL,
// synchronous=FULL) the app uses, so the numbers include real fsyncs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { migrate } from '../src/core/db/migrate';
import { openDatabase } from '../src/core/db/open-database';

export interface BenchDatabase {
  readonly db: Database;
  readonly file: string;
  dispose(): void;
}

export function createBenchDatabase(label: string): BenchDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `procure-bench-${label}-`));
  const file = path.join(dir, 'procure.sqlite');
  const db = openDatabase(file);
  migrate(db);
  return {
    db,
    file,
    dispose: () => {
      if (db.open) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The value at quantile q (0..1) of already sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}
