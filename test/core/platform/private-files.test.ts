// The data folder is this OS user's only (platform/private-files.ts): 0700, with the database, its
// WAL and SHM, and the log 0600, on every start, also when an earlier run, a hand-made folder or a
// loose umask left them 0755 / 0644. Checked with real SQLite files on disk and the real CLI context.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openCliContext } from '../../../src/cli/cli-context';
import { createCore, DATABASE_FILE_NAME } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';

const modeOf = (path: string): number => statSync(path).mode & 0o777;
const logger = (): RedactingLogger => new RedactingLogger({ sink: () => undefined });

// POSIX modes only: Windows has no mode bits to assert (chmod sets just the read-only flag there); the
// folder under the user's profile is private through its ACL, which the app does not change.
describe.skipIf(process.platform === 'win32')('data folder permissions', () => {
  const made: string[] = [];
  const folder = (): string => {
    const parent = mkdtempSync(join(tmpdir(), 'procure-modes-'));
    made.push(parent);
    return join(parent, 'data');
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('a new folder: 0700, and the database, WAL and SHM are 0600 from the start', async () => {
    const dir = folder();
    const core = await createCore({ dataDir: dir, secrets: new MemorySecretStore(), logger: logger() });
    try {
      const db = join(dir, DATABASE_FILE_NAME);
      expect(modeOf(dir)).toBe(0o700);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file), file).toBe(0o600);
      }
    } finally {
      await core.close();
    }
  });

  it('a folder left 0755 with a 0644 database, WAL and SHM (an older run) is closed up on the next start', async () => {
    const dir = folder();
    const first = await createCore({ dataDir: dir, secrets: new MemorySecretStore(), logger: logger() });
    await first.close();
    const db = join(dir, DATABASE_FILE_NAME);
    chmodSync(dir, 0o755);
    chmodSync(db, 0o644);
    // Another connection writing now makes a WAL and SHM with the database's (loose) mode, and keeps them.
    const other = new Database(db);
    try {
      other.prepare('CREATE TABLE IF NOT EXISTS scratch (x)').run();
      expect(modeOf(`${db}-wal`)).toBe(0o644);
      expect(modeOf(`${db}-shm`)).toBe(0o644);
      expect(modeOf(dir)).toBe(0o755);

      const second = await createCore({ dataDir: dir, secrets: new MemorySecretStore(), logger: logger() });
      try {
        expect(modeOf(dir)).toBe(0o700);
        for (const file of [db, `${db}-wal`, `${db}-shm`]) expect(modeOf(file), file).toBe(0o600);
      } finally {
        await second.close();
      }
    } finally {
      other.close();
    }
  });

  it('the CLI: a 0644 log and a 0755 folder become 0600 and 0700 when it starts', async () => {
    const dir = folder();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const log = join(dir, 'procure-desk.log');
    writeFileSync(log, 'an older line\n', { mode: 0o644 });
    chmodSync(log, 0o644);
    const before = process.env['PROCURE_PASSPHRASE'];
    process.env['PROCURE_PASSPHRASE'] = 'modes-test-passphrase';
    try {
      const context = await openCliContext(dir);
      try {
        expect(modeOf(dir)).toBe(0o700);
        expect(modeOf(log)).toBe(0o600);
        context.logger.info('a new line');
        expect(modeOf(log)).toBe(0o600);
        expect(modeOf(join(dir, DATABASE_FILE_NAME))).toBe(0o600);
      } finally {
        await context.core.close();
      }
    } finally {
      if (before === undefined) delete process.env['PROCURE_PASSPHRASE'];
      else process.env['PROCURE_PASSPHRASE'] = before;
    }
  });
});
