// The log file sink: it never writes on the caller's turn (the UI thread of Electron main logs through
// it), writes every line in order once flushed, rotates by size keeping `keep` older files, keeps the
// logger's redaction, drops (and counts) lines only when far more are waiting than the disk took.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createRotatingFileSink } from '../../../src/core/logging/rotating-file-sink';

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'procure-log-'));
  path = join(dir, 'procure-desk.log');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const linesOf = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');

describe('rotating file sink', () => {
  it('writes after the caller returns, in order, into a file only the user can read', async () => {
    const log = createRotatingFileSink({ path });
    for (let i = 0; i < 100; i++) log.sink(`line ${i}`);
    // Nothing was written on this turn: the caller never waited for the disk.
    expect(existsSync(path)).toBe(false);
    await log.flush();
    expect(linesOf(path)).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i}`));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    log.sink('after the flush');
    await log.close();
    expect(linesOf(path).at(-1)).toBe('after the flush');
    log.sink('after close');
    await log.flush();
    expect(linesOf(path)).not.toContain('after close');
  });

  it('rotates by size, keeps `keep` older files and never splits a line', async () => {
    const log = createRotatingFileSink({ path, maxBytes: 100, keep: 2 });
    const lines = Array.from({ length: 40 }, (_, i) => `entry-${String(i).padStart(2, '0')}-${'x'.repeat(10)}`);
    for (const [i, line] of lines.entries()) {
      log.sink(line);
      // Some lines in separate writes, some together: both paths rotate.
      if (i % 7 === 0) await log.flush();
    }
    await log.close();
    expect(existsSync(`${path}.3`)).toBe(false);
    const files = [`${path}.2`, `${path}.1`, path];
    for (const file of files) expect(statSync(file).size).toBeLessThanOrEqual(100);
    const kept = files.flatMap(linesOf);
    // The newest lines survive, oldest first across the files, whole.
    expect(kept).toEqual(lines.slice(lines.length - kept.length));
    expect(kept.length).toBeGreaterThanOrEqual(9);
  });

  it('continues an existing file and rotates it when it is already full', async () => {
    const first = createRotatingFileSink({ path, maxBytes: 64 });
    first.sink('x'.repeat(60));
    await first.close();
    const second = createRotatingFileSink({ path, maxBytes: 64 });
    second.sink('next run');
    await second.close();
    expect(linesOf(`${path}.1`)).toEqual(['x'.repeat(60)]);
    expect(linesOf(path)).toEqual(['next run']);
  });

  it('keeps the redaction: a registered secret never reaches the file', async () => {
    const log = createRotatingFileSink({ path });
    const logger = new RedactingLogger({ sink: log.sink, level: 'info' });
    const apiKey = 'AK_0123456789abcdef0123456789abcdef';
    logger.registerSecret(apiKey);
    logger.info('connected', { key: apiKey, note: `key ${apiKey}` });
    await log.close();
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('connected');
    expect(text).not.toContain(apiKey);
  });

  it('drops and counts lines beyond the pending limit instead of growing without bound', async () => {
    const log = createRotatingFileSink({ path, maxPendingBytes: 100 });
    for (let i = 0; i < 10; i++) log.sink(`${String(i)}${'y'.repeat(39)}`);
    await log.close();
    const written = linesOf(path);
    expect(written.slice(0, 2)).toEqual([`0${'y'.repeat(39)}`, `1${'y'.repeat(39)}`]);
    expect(written).toHaveLength(3);
    expect(JSON.parse(written[2] ?? '{}')).toMatchObject({ level: 'warn', fields: { dropped: 8 } });
  });

  it('reports a failed write and carries on once the folder is back', async () => {
    const errors: unknown[] = [];
    const folder = join(dir, 'gone');
    const log = createRotatingFileSink({ path: join(folder, 'app.log'), onError: (error) => errors.push(error) });
    log.sink('lost');
    await log.flush();
    expect(errors).toHaveLength(1);
    mkdirSync(folder);
    log.sink('back');
    await log.close();
    expect(errors).toHaveLength(1);
    expect(linesOf(join(folder, 'app.log'))).toEqual(['back']);
  });
});
