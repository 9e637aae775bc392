// The export's file write: the temporary file sits beside the target (never in os.tmpdir()) with mode
// 0600, and a failure at any step leaves neither it nor a partial target behind.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageFile, temporaryNameFor } from '../../../src/core/export/atomic-file-write';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'procure-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('atomic export write', () => {
  it('stages next to the target with mode 0600, then renames into place', async () => {
    const target = join(dir, 'cards.xlsx');
    expect(dirname(temporaryNameFor(target))).toBe(dir);
    const staged = await stageFile(target, Buffer.from('whole file'));
    expect(dirname(staged.temporaryPath)).toBe(dir);
    expect(statSync(staged.temporaryPath).mode & 0o777).toBe(0o600);
    expect(existsSync(target)).toBe(false);
    staged.commit();
    expect(readFileSync(target, 'utf8')).toBe('whole file');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['cards.xlsx']);
  });

  it('replaces an existing file whole (the save dialog asked before overwriting)', async () => {
    const target = join(dir, 'cards.csv');
    writeFileSync(target, 'old content that is longer than the new');
    (await stageFile(target, Buffer.from('new'))).commit();
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['cards.csv']);
  });

  it('removes the temporary file when the rename fails, and leaves no partial target', async () => {
    // A directory where the file should go: the rename fails after every byte was written and fsynced.
    const target = join(dir, 'taken');
    mkdirSync(target);
    const staged = await stageFile(target, Buffer.from('x'.repeat(100_000)));
    expect(existsSync(staged.temporaryPath)).toBe(true);
    expect(() => staged.commit()).toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readdirSync(target)).toEqual([]);
  });

  it('leaves nothing when the folder cannot be written at all', async () => {
    await expect(stageFile(join(dir, 'missing', 'cards.zip'), Buffer.from('x'))).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes a committed file back when the caller\'s transaction fails after the rename', async () => {
    const target = join(dir, 'cards.xlsx');
    const staged = await stageFile(target, Buffer.from('x'));
    staged.commit();
    staged.retract();
    await staged.discard();
    expect(readdirSync(dir)).toEqual([]);
  });
});
