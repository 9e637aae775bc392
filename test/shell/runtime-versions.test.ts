// The runtimes stay supported without a network check: the pinned Electron major must be among the
// latest three (Electron's support policy), judged from electron-support.json and today's date. When
// more release cadences have passed since the table's newest line than the pinned major can absorb,
// the test fails until Electron is upgraded and the table updated (docs/developers.md: Upgrading Electron).
// Node follows the same rule: the toolchain, the engines field and @types/node all name the major of
// the Node inside the pinned Electron. Within its major, the pin is at least the latest patch the
// table recorded (latestPatch), and that record is at most one release cadence old.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface SupportTable {
  checkedOn: string;
  supportedMajors: number;
  cadenceDays: number;
  stableReleases: Record<string, string>;
  nodeMajorInside: Record<string, number>;
  latestPatch: Record<string, string>;
}

interface PackageJson {
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const DAY_MS = 86_400_000;
const table = JSON.parse(readFileSync('electron-support.json', 'utf8')) as SupportTable;
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const pinned = pkg.devDependencies['electron'] ?? '';
const pinnedMajor = Number(pinned.split('.')[0]);

/** The newest Electron major that has probably shipped by `today`: the table's newest line, plus one per cadence since. */
function newestMajorBy(today: Date, releases: SupportTable): number {
  const lines = Object.entries(releases.stableReleases)
    .map(([major, date]) => ({ major: Number(major), at: Date.parse(`${date}T00:00:00Z`) }))
    .filter((line) => line.at <= today.getTime())
    .sort((a, b) => b.major - a.major);
  const newest = lines[0];
  if (newest === undefined) throw new Error('electron-support.json lists no release line out by today');
  return newest.major + Math.floor((today.getTime() - newest.at) / (releases.cadenceDays * DAY_MS));
}

/** Why `pinned` lags the latest patch the table knows for its major, or undefined when it does not. */
function behindLatestPatch(pinnedVersion: string, releases: SupportTable): string | undefined {
  const major = pinnedVersion.split('.')[0] ?? '';
  const latest = releases.latestPatch[major];
  if (latest === undefined) return `electron-support.json: latestPatch lacks Electron ${major}`;
  const [a, b] = [pinnedVersion, latest].map((v) => v.split('.').map(Number));
  const behind = (a?.[1] ?? 0) < (b?.[1] ?? 0) || ((a?.[1] ?? 0) === (b?.[1] ?? 0) && (a?.[2] ?? 0) < (b?.[2] ?? 0));
  return behind ? `Electron ${pinnedVersion} is behind ${latest}, the latest ${major}.x patch (checked ${releases.checkedOn}): upgrade it (docs/developers.md: Upgrading Electron)` : undefined;
}

describe('supported runtimes', () => {
  it('pins Electron exactly, to a line the table lists', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(table.stableReleases)).toContain(String(pinnedMajor));
    expect(Date.parse(`${table.checkedOn}T00:00:00Z`)).toBeLessThanOrEqual(Date.now());
  });

  it('keeps the pinned Electron major within the latest three', () => {
    const newest = newestMajorBy(new Date(), table);
    expect(pinnedMajor, `Electron ${pinned} is older than the supported ${newest - table.supportedMajors + 1}–${newest}: upgrade it and update electron-support.json`).toBeGreaterThan(
      newest - table.supportedMajors,
    );
  });

  it('estimates the newest major from the cadence, so a stale table fails rather than passes', () => {
    const lines: SupportTable = { ...table, stableReleases: { '44': '2026-08-25', '45': '2026-10-21' } };
    expect(newestMajorBy(new Date('2026-11-24T12:00:00Z'), lines)).toBe(45);
    expect(newestMajorBy(new Date('2026-12-16T00:00:00Z'), lines)).toBe(46);
    // Three cadences after 45: 48 is probably out and 45 is no longer among the latest three.
    expect(newestMajorBy(new Date('2027-04-07T00:00:00Z'), lines)).toBe(48);
    expect(newestMajorBy(new Date('2026-09-01T00:00:00Z'), lines)).toBe(44);
  });

  it('pins at least the latest patch of its major the table recorded', () => {
    expect(behindLatestPatch(pinned, table)).toBeUndefined();
    for (const [major, version] of Object.entries(table.latestPatch)) expect(version, `latestPatch ${major}`).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
  });

  it('has the latest patches looked up within one release cadence', () => {
    const age = Math.floor((Date.now() - Date.parse(`${table.checkedOn}T00:00:00Z`)) / DAY_MS);
    expect(age, `electron-support.json was checked ${String(age)} days ago: look up the latest patch of each line again and set checkedOn`).toBeLessThanOrEqual(table.cadenceDays);
  });

  it('tells a pin behind a known patch, not one at or past it', () => {
    const lines: SupportTable = { ...table, checkedOn: '2026-11-28', latestPatch: { '45': '45.5.0' } };
    expect(behindLatestPatch('45.4.1', lines)).toContain('Electron 45.4.1 is behind 45.5.0');
    expect(behindLatestPatch('45.4.9', lines)).toContain('behind 45.5.0');
    expect(behindLatestPatch('45.5.0', lines)).toBeUndefined();
    expect(behindLatestPatch('45.5.2', lines)).toBeUndefined();
    expect(behindLatestPatch('45.10.0', lines)).toBeUndefined();
    expect(behindLatestPatch('46.0.0', lines)).toContain('latestPatch lacks Electron 46');
  });

  it('uses the Node major inside that Electron for the toolchain, engines and @types/node', () => {
    const nodeMajor = table.nodeMajorInside[String(pinnedMajor)];
    expect(nodeMajor, 'electron-support.json: nodeMajorInside lacks the pinned Electron major').toBeDefined();
    expect(readFileSync('.node-version', 'utf8').trim()).toBe(String(nodeMajor));
    expect(pkg.engines.node).toBe(`>=${String(nodeMajor)}`);
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^${String(nodeMajor)}\\.\\d+\\.\\d+$`));
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(nodeMajor ?? Infinity);
  });

  it('fetches the Electron binary before the desktop commands run it', () => {
    // Since Electron 42 the package downloads its binary on first use, not on install, and
    // electron-vite only reads the path the download leaves behind.
    // After the Node guard every script starts with (scripts/require-node.cjs, issue 26).
    expect(pkg.scripts['start']).toMatch(/^node scripts\/require-node\.cjs && install-electron && electron-vite preview$/);
    expect(pkg.scripts['dev']).toMatch(/^node scripts\/require-node\.cjs && install-electron && electron-vite dev$/);
  });

  it('pins every dependency exactly: the lockfile is the truth', () => {
    const ranges = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, version]) => !/^(npm:[@\w./-]+@)?\d+\.\d+\.\d+$/.test(version));
    expect(ranges).toEqual([]);
  });
});
