// The web host's export folder: `--exports DIR` parsed, the default `<data dir>/exports`, created
// private (0700) at start-up and announced.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { openExportFolder, removeUnfinishedExports } from '../../src/web-host/export-folder';
import { runWebHost } from '../../src/web-host/run-web-host';
import { parseWebHostArgs, UsageError, WEB_USAGE } from '../../src/web-host/web-host-args';
import { fakeRendererDir } from './web-host-kit';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'procure-web-exports-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('web host export folder', () => {
  it('parses --exports and documents it', () => {
    expect(parseWebHostArgs(['--exports', '/srv/exports']).exportsDir).toBe('/srv/exports');
    expect(parseWebHostArgs([]).exportsDir).toBeNull();
    expect(() => parseWebHostArgs(['--exports'])).toThrow(UsageError);
    expect(WEB_USAGE).toContain('--exports DIR');
  });

  it('creates the folder (and its parents) with mode 0700, and leaves an existing folder as it is', () => {
    const made = openExportFolder(join(dir, 'a', 'exports'));
    expect(made).toBe(join(dir, 'a', 'exports'));
    expect(existsSync(made)).toBe(true);
    // Windows has no mode bits to assert (the profile's ACL keeps the folder private there).
    if (process.platform === 'win32') return;
    expect(statSync(made).mode & 0o777).toBe(0o700);
    const existing = join(dir, 'mine');
    mkdirSync(existing, { mode: 0o750 });
    openExportFolder(existing);
    expect(statSync(existing).mode & 0o777).toBe(0o750);
  });

  it('removes the temporary files of unfinished exports, and nothing else', () => {
    writeFileSync(join(dir, '.cards.csv.0123456789ab.partial'), 'card codes');
    writeFileSync(join(dir, 'cards.csv'), '');
    writeFileSync(join(dir, 'notes.partial'), '');
    expect(removeUnfinishedExports(dir)).toEqual(['.cards.csv.0123456789ab.partial']);
    expect(existsSync(join(dir, '.cards.csv.0123456789ab.partial'))).toBe(false);
    expect(existsSync(join(dir, 'cards.csv'))).toBe(true);
    expect(existsSync(join(dir, 'notes.partial'))).toBe(true);
  });

  it('opens <data dir>/exports at start-up, or the --exports folder, and says where', async () => {
    const notices: string[] = [];
    const logger = new RedactingLogger({ sink: () => undefined });
    const data = join(dir, 'data');
    const host = await runWebHost({
      args: { port: 0, dataDir: data, demo: false, rendererDir: fakeRendererDir().dir, exitOnStdinClose: false },
      passphrase: 'correct horse battery staple',
      logger,
      notice: (line) => notices.push(line),
    });
    await host.stop();
    expect(existsSync(join(data, 'exports'))).toBe(true);
    if (process.platform !== 'win32') expect(statSync(join(data, 'exports')).mode & 0o777).toBe(0o700);
    expect(notices.some((line) => line.startsWith(`card exports are handed to the browser as downloads; each waits in ${join(data, 'exports')} `))).toBe(true);

    const chosen = join(dir, 'chosen');
    const second = await runWebHost({
      args: { port: 0, dataDir: data, demo: false, rendererDir: fakeRendererDir().dir, exitOnStdinClose: false, exportsDir: chosen },
      passphrase: 'correct horse battery staple',
      logger,
      notice: (line) => notices.push(line),
    });
    await second.stop();
    expect(existsSync(chosen)).toBe(true);
    expect(notices.at(-1)).toContain(`each waits in ${chosen} until it is fetched`);
  });
});
