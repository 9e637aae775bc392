// npm run licenses: the bundles' package lists come from the bundler's own record of the code it
// rendered (a real Vite build with the plugin here), the node_modules list from package-lock.json the
// way Node resolves it, kept to what is installed (so each OS lists its own ngrok package, and the list
// equals electron-builder's collector on a real install); the notices carry each package's licence
// texts and the SBOM is CycloneDX with npm's integrity hashes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenceFiles } from '../../scripts/licenses';
import { bundledLockKeys, bundledPackagesPlugin, lockKeyOfModule } from '../../scripts/licenses/bundled-packages-plugin';
import { installedUnder, readLockFile, resolveKey, shippedLockKeys, type LockFile } from '../../scripts/licenses/lock-packages';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the package a bundled module belongs to', () => {
  const dirs = ['/p/node_modules', '/real/node_modules'];
  it('is named by its package-lock key, scoped and nested packages included', () => {
    expect(lockKeyOfModule('/p/node_modules/antd/es/button/index.js', dirs)).toBe('node_modules/antd');
    expect(lockKeyOfModule('/real/node_modules/@ant-design/icons/es/x.js', dirs)).toBe('node_modules/@ant-design/icons');
    expect(lockKeyOfModule('/p/node_modules/a/node_modules/@s/b/lib/c.js?commonjs-proxy', dirs)).toBe('node_modules/a/node_modules/@s/b');
    expect(lockKeyOfModule('\0/p/node_modules/react/index.js?commonjs-es-import', dirs)).toBe('node_modules/react');
    expect(lockKeyOfModule('C:\\p\\node_modules\\zod\\index.js', ['C:\\p\\node_modules'])).toBe('node_modules/zod');
  });

  it("is none for the project's own modules and the bundler's virtual ones", () => {
    expect(lockKeyOfModule('/p/src/renderer/src/main.tsx', dirs)).toBeNull();
    expect(lockKeyOfModule('\0vite/preload-helper.js', dirs)).toBeNull();
  });

  it('counts only modules whose code was rendered, and stylesheets', () => {
    const chunk = { modules: { '/p/node_modules/a/x.js': { renderedLength: 10 }, '/p/node_modules/b/x.js': { renderedLength: 0 }, '/p/node_modules/c/s.css': { renderedLength: 0 }, '/p/node_modules/a/y.js': { renderedLength: 3 } } };
    expect(bundledLockKeys([chunk], dirs)).toEqual(['node_modules/a', 'node_modules/c']);
  });
});

describe('the bundler plugin in a real Vite build', () => {
  async function bundledBy(code: string): Promise<string[]> {
    const output = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [
        { name: 'entry', enforce: 'pre', resolveId: (id) => (id.endsWith('virtual:entry') ? '\0virtual:entry' : null), load: (id) => (id === '\0virtual:entry' ? code : null) },
        bundledPackagesPlugin(root),
      ],
      build: { write: false, lib: { entry: 'virtual:entry', formats: ['es'], fileName: 'entry' } },
    });
    const outputs = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
    const asset = outputs.find((file): file is Rollup.OutputAsset => file.type === 'asset' && file.fileName === 'bundled-packages.json');
    if (asset === undefined) throw new Error('the plugin emitted no bundled-packages.json');
    const parsed: unknown = JSON.parse(String(asset.source));
    if (typeof parsed !== 'object' || parsed === null || !('packages' in parsed) || !Array.isArray(parsed.packages)) throw new Error('no package list');
    return parsed.packages.map(String);
  }

  it('lists the packages whose code the bundle holds, and not one imported but tree-shaken away', async () => {
    expect(await bundledBy("import dayjs from 'dayjs';\nimport { zipSync } from 'fflate';\nexport const year = dayjs(0).year();\n")).toEqual(['node_modules/dayjs']);
    expect(await bundledBy("import dayjs from 'dayjs';\nimport { zipSync } from 'fflate';\nexport const both = [dayjs(0).year(), zipSync({})];\n")).toEqual(['node_modules/dayjs', 'node_modules/fflate']);
  });
});

describe('the packages that ship in node_modules', () => {
  const lock: LockFile = {
    lockfileVersion: 3,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies: { a: '1', native: '1' }, devDependencies: { d: '1' } },
      'node_modules/a': { version: '1.0.0', license: 'MIT', dependencies: { b: '2' }, peerDependencies: { p: '1' } },
      'node_modules/b': { version: '1.0.0', license: 'ISC' },
      'node_modules/a/node_modules/b': { version: '2.0.0', license: 'ISC' },
      'node_modules/p': { version: '1.0.0', license: 'MIT' },
      'node_modules/d': { version: '1.0.0', dev: true, license: 'MIT', dependencies: { b: '1' } },
      'node_modules/native': { version: '1.0.0', license: 'MIT', optionalDependencies: { 'native-win32': '1', 'native-linux': '1' } },
      'node_modules/native-win32': { version: '1.0.0', license: 'MIT' },
      'node_modules/native-linux': { version: '1.0.0', license: 'MIT' },
    },
  };

  it("are the production closure, resolved as Node does, with this machine's optional packages only", () => {
    expect(resolveKey(lock, 'node_modules/a', 'b')).toBe('node_modules/a/node_modules/b');
    expect(resolveKey(lock, 'node_modules/d', 'b')).toBe('node_modules/b');
    const onWindows = (key: string): boolean => key !== 'node_modules/native-linux';
    expect(shippedLockKeys(lock, onWindows)).toEqual(['node_modules/a', 'node_modules/a/node_modules/b', 'node_modules/native', 'node_modules/native-win32', 'node_modules/p']);
  });

  it("of this project hold every dependency, only this OS's ngrok packages, and never a dev-only package", () => {
    const real = readLockFile(root);
    const keys = shippedLockKeys(real, installedUnder(root));
    for (const name of Object.keys(real.packages['']?.dependencies ?? {})) expect(keys).toContain(`node_modules/${name}`);
    // Linux and Windows: the one package for this OS; macOS: its architecture's and the universal one.
    const ngrok = keys.filter((key) => key.startsWith('node_modules/@ngrok/ngrok-'));
    expect(ngrok.length).toBeGreaterThan(0);
    for (const key of ngrok) expect(real.packages[key]?.os).toEqual([process.platform]);
    expect(keys.filter((key) => real.packages[key]?.dev === true)).toEqual([]);
    expect(keys).not.toContain('node_modules/react');
  });
});

describe('npm run licenses', () => {
  let fixture: string;
  const licenceOf = (name: string): string => `Copyright (c) the ${name} authors\n\nPermission is hereby granted…`;

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), 'pd-licenses-'));
    const write = (path: string, text: string): void => {
      mkdirSync(join(fixture, path, '..'), { recursive: true });
      writeFileSync(join(fixture, path), text);
    };
    write('package.json', JSON.stringify({ name: 'procure-desk', version: '9.8.7' }));
    write(
      'package-lock.json',
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'procure-desk', version: '9.8.7', dependencies: { shipped: '1' }, devDependencies: { ui: '1' } },
          'node_modules/shipped': { version: '1.2.3', license: 'MIT', integrity: `sha512-${Buffer.alloc(64, 1).toString('base64')}` },
          'node_modules/ui': { version: '4.5.6', license: 'Apache-2.0', dev: true },
          'node_modules/@s/bare': { version: '0.1.0', license: 'ISC', dev: true },
          'node_modules/tool': { version: '1.0.0', license: 'GPL-3.0-only', dev: true },
        },
      }),
    );
    write('node_modules/shipped/package.json', '{}');
    write('node_modules/shipped/LICENSE', licenceOf('shipped'));
    write('node_modules/ui/package.json', '{}');
    write('node_modules/ui/LICENSE.txt', licenceOf('ui'));
    write('node_modules/ui/NOTICE', 'ui NOTICE text');
    write('node_modules/@s/bare/package.json', '{}');
    write('node_modules/tool/package.json', '{}');
    write('out/main/bundled-packages.json', JSON.stringify({ packages: [] }));
    write('out/preload/bundled-packages.json', JSON.stringify({ packages: ['node_modules/ui'] }));
    write('out/renderer/bundled-packages.json', JSON.stringify({ packages: ['node_modules/ui', 'node_modules/@s/bare'] }));
  });
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('lists what ships and what is bundled, each with its licence texts, and nothing else', () => {
    const { notices, count } = licenceFiles(fixture);
    expect(count).toBe(3);
    expect(notices).toContain('THIRD-PARTY NOTICES for procure-desk 9.8.7');
    expect(notices).toContain(`shipped 1.2.3\nLicence: MIT\nIn: node_modules\n\n--- LICENSE ---\n${licenceOf('shipped')}`);
    expect(notices).toContain(`ui 4.5.6\nLicence: Apache-2.0\nIn: preload bundle, renderer bundle\n\n--- LICENSE.txt ---\n${licenceOf('ui')}\n\n--- NOTICE ---\nui NOTICE text`);
    expect(notices).toContain('@s/bare 0.1.0\nLicence: ISC\nIn: renderer bundle\n\n(The package holds no licence file; its package.json declares: ISC.)');
    // A dev tool that neither ships nor is bundled is not in the app.
    expect(notices).not.toContain('tool 1.0.0');
  });

  it('writes a CycloneDX SBOM of the same packages with purls, licences and the lock file hashes', () => {
    const sbom: unknown = JSON.parse(licenceFiles(fixture, new Date('2026-11-28T00:00:00Z')).sbom);
    expect(sbom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5', metadata: { timestamp: '2026-11-28T00:00:00.000Z', component: { name: 'procure-desk', version: '9.8.7', type: 'application' } } });
    const components = typeof sbom === 'object' && sbom !== null && 'components' in sbom && Array.isArray(sbom.components) ? sbom.components : [];
    expect(components.map((c: { purl?: string }) => c.purl)).toEqual(['pkg:npm/%40s/bare@0.1.0', 'pkg:npm/shipped@1.2.3', 'pkg:npm/ui@4.5.6']);
    expect(components[1]).toMatchObject({ licenses: [{ expression: 'MIT' }], hashes: [{ alg: 'SHA-512', content: '01'.repeat(64) }] });
  });

  it('refuses to run before the build wrote the bundles’ lists', () => {
    rmSync(join(fixture, 'out/renderer/bundled-packages.json'));
    expect(() => licenceFiles(fixture)).toThrow(/out\/renderer\/bundled-packages\.json is missing or unreadable: run npm run build first/);
  });
});
