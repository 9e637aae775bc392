// The development toolchain, read from package.json and the lock (the truth of what `npm ci` installs):
// no ESLint older than 10 anywhere in the tree, no Electronegativity (it runs from its own install,
// scripts/electronegativity.ts) and no node-forge; `npm run typecheck` uses TypeScript 7 while lint's
// typescript-eslint gets the TypeScript it supports (docs/developers.md: The toolchain).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  name?: string;
  version?: string;
  link?: boolean;
}
interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry & Partial<PackageJson>> };

/** Every installed package of the lock as "name@version", by its real name (an alias such as typescript-7 names typescript). */
function installed(packages: Record<string, LockEntry>): { name: string; version: string; at: string }[] {
  return Object.entries(packages)
    .filter(([at, entry]) => at !== '' && entry.link !== true)
    .map(([at, entry]) => ({ name: entry.name ?? at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length), version: entry.version ?? '', at }));
}

const major = (version: string): number => Number(version.split('.')[0]);
/** a < b for plain x.y.z versions. */
function older(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x?.[i] ?? 0) !== (y?.[i] ?? 0)) return (x?.[i] ?? 0) < (y?.[i] ?? 0);
  return false;
}

/** What the tree must not hold, and why. */
function forbidden(tree: { name: string; version: string; at: string }[]): string[] {
  return tree.flatMap(({ name, version, at }) => {
    if (name === 'eslint' && major(version) < 10) return [`${at}@${version}: ESLint 9 and older are out of maintenance`];
    if (name === '@doyensec/electronegativity') return [`${at}: Electronegativity runs from its own install (scripts/tools/electronegativity)`];
    if (name === 'node-forge') return [`${at}: the demo merchant's CA is made with Node's crypto and @peculiar/x509`];
    return [];
  });
}

describe('the dependency tree', () => {
  it('is the one package.json asks for: the lock is current', () => {
    const rootEntry = lock.packages[''];
    expect(rootEntry?.dependencies).toEqual(pkg.dependencies);
    expect(rootEntry?.devDependencies).toEqual(pkg.devDependencies);
  });

  it('holds no ESLint older than 10', () => {
    const eslints = installed(lock.packages).filter((p) => p.name === 'eslint');
    expect(eslints.length).toBeGreaterThan(0);
    expect(forbidden(eslints)).toEqual([]);
  });

  it('holds no Electronegativity', () => {
    expect(forbidden(installed(lock.packages).filter((p) => p.name === '@doyensec/electronegativity'))).toEqual([]);
  });

  it('holds no node-forge', () => {
    expect(forbidden(installed(lock.packages).filter((p) => p.name === 'node-forge'))).toEqual([]);
  });

  it('would be caught holding any of them, nested or aliased', () => {
    const planted = {
      '': {},
      'node_modules/eslint': { version: '10.15.0' },
      'node_modules/some-tool/node_modules/eslint': { version: '7.32.0' },
      'node_modules/@doyensec/electronegativity': { version: '1.10.3' },
      'node_modules/forge': { name: 'node-forge', version: '1.4.3' },
      'node_modules/src-link': { link: true },
    };
    expect(forbidden(installed(planted)).map((why) => why.split(':')[0])).toEqual(['node_modules/some-tool/node_modules/eslint@7.32.0', 'node_modules/@doyensec/electronegativity', 'node_modules/forge']);
  });
});

describe('TypeScript: 7 type-checks, the one typescript-eslint supports lints', () => {
  const typescript7 = JSON.parse(readFileSync('node_modules/typescript-7/package.json', 'utf8')) as { name: string; version: string };
  const typescript = JSON.parse(readFileSync('node_modules/typescript/package.json', 'utf8')) as { version: string };

  it('npm run typecheck runs TypeScript 7 on both projects', () => {
    expect(pkg.devDependencies['typescript-7']).toMatch(/^npm:typescript@7\.\d+\.\d+$/);
    expect(typescript7.name).toBe('typescript');
    expect(typescript7.version).toMatch(/^7\./);
    const tsc = 'node node_modules/typescript-7/bin/tsc';
    expect(pkg.scripts['typecheck']).toBe(`node scripts/require-node.cjs && ${tsc} -p tsconfig.node.json --noEmit && ${tsc} -p tsconfig.web.json --noEmit`);
  });

  it('lint runs typescript-eslint on the TypeScript its peer range accepts', () => {
    expect(pkg.scripts['lint']).toMatch(/&& eslint --max-warnings 0 \.$/);
    const peer = (JSON.parse(readFileSync('node_modules/typescript-eslint/package.json', 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies['typescript'] ?? '';
    const [, low = '', high = ''] = /^>=(\d+\.\d+\.\d+) <(\d+\.\d+\.\d+)$/.exec(peer) ?? [];
    expect(high, `typescript-eslint's typescript range: ${peer}`).not.toBe('');
    expect(pkg.devDependencies['typescript']).toBe(typescript.version);
    expect(older(typescript.version, low) || !older(typescript.version, high)).toBe(false);
    // TypeScript 7 is outside that range: it must never become the `typescript` typescript-eslint loads.
    expect(older(typescript7.version, high)).toBe(false);
  });
});
