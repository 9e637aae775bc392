// openDatabase must leave a connection with the durability settings the order and vault rules rely
// on, read back from SQLite rather than assumed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS, DatabaseOpenError, openDatabase } from '../../../src/core/db/open-database';
import { createTempDatabase } from './temp-database';
import type { TempDatabase } from './temp-database';

let temp: TempDatabase | undefined;
afterEach(() => {
  temp?.dispose();
  temp = undefined;
});

describe('openDatabase', () => {
  it('enables WAL, synchronous FULL, foreign keys and a busy timeout, as read back', () => {
    temp = createTempDatabase();
    const { db } = temp;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
  });

  it('keeps WAL on the file, so a second connection sees it too', () => {
    temp = createTempDatabase();
    temp.db.exec('CREATE TABLE t (x INTEGER)');
    const second = openDatabase(temp.file);
    try {
      expect(second.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(fs.existsSync(`${temp.file}-wal`)).toBe(true);
    } finally {
      second.close();
    }
  });

  it('refuses a database where WAL cannot be enabled', () => {
    // An in-memory database reports journal_mode "memory": the same refusal path as a file system
    // that does not support WAL.
    expect(() => openDatabase(':memory:')).toThrow(DatabaseOpenError);
    expect(() => openDatabase(':memory:')).toThrow(/refused WAL/);
  });

  it('fails, without leaving a handle open, when the folder does not exist', () => {
    const missing = path.join(os.tmpdir(), `procure-missing-${process.pid}-${Date.now()}`, 'db.sqlite');
    expect(() => openDatabase(missing)).toThrow();
  });
});
