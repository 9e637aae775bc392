// A Vite/Rolldown plugin for electron.vite.config.ts: records which npm packages each bundle (main,
// preload, renderer) holds code of, exactly as the bundler rendered it (modules whose code was
// tree-shaken away do not count), as bundled-packages.json beside the bundle: the package folders as
// package-lock.json names them. npm run licenses reads these lists (scripts/licenses.ts).
import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Plugin } from 'vite';

export const BUNDLED_PACKAGES_FILE = 'bundled-packages.json';

/**
 * The package-lock key (node_modules/a, node_modules/a/node_modules/@s/b) of the package a module id
 * belongs to, or null for the project's own modules and the bundler's virtual ones.
 */
export function lockKeyOfModule(id: string, nodeModulesDirs: readonly string[]): string | null {
  const path = id.replace(/^\0+/, '').replace(/[?#].*$/, '').replaceAll('\\', '/');
  const base = nodeModulesDirs.map((dir) => `${dir.replaceAll('\\', '/')}/`).find((dir) => path.startsWith(dir));
  if (base === undefined) return null;
  const segments = path.slice(base.length).split('/');
  const key: string[] = [];
  // node_modules/<pkg>[/node_modules/<pkg>]…: a scoped name takes two segments.
  for (let at = 0; at < segments.length; ) {
    const first = segments[at] ?? '';
    const name = first.startsWith('@') ? `${first}/${segments[at + 1] ?? ''}` : first;
    key.push(`node_modules/${name}`);
    at += first.startsWith('@') ? 2 : 1;
    if (segments[at] !== 'node_modules') break;
    at += 1;
  }
  return key.join('/');
}

/** The package folders whose code a bundle's chunks hold, sorted and without repeats. */
export function bundledLockKeys(chunks: Iterable<{ readonly modules: Readonly<Record<string, { readonly renderedLength: number }>> }>, nodeModulesDirs: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      // A stylesheet's rules leave the chunk for a .css asset, so its rendered length in the chunk is 0.
      if (module.renderedLength === 0 && !/\.css($|\?)/.test(id)) continue;
      const key = lockKeyOfModule(id, nodeModulesDirs);
      if (key !== null) keys.add(key);
    }
  }
  return [...keys].sort();
}

export function bundledPackagesPlugin(projectRoot: string): Plugin {
  const linked = join(projectRoot, 'node_modules');
  // The bundler names modules by their real path: node_modules may be a link to another folder.
  const dirs = [...new Set([linked, realpathSync(linked)])].map((dir) => dir.split(sep).join('/'));
  return {
    name: 'procure-desk:bundled-packages',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const source = `${JSON.stringify({ packages: bundledLockKeys(chunks, dirs) }, null, 2)}\n`;
      this.emitFile({ type: 'asset', fileName: BUNDLED_PACKAGES_FILE, source });
    },
  };
}
