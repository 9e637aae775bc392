import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type RendererLocation =
  | { kind: 'dev-server'; url: string; scriptNonce: string | undefined }
  | { kind: 'file'; path: string; url: string };

/**
 * Where the renderer is loaded from. The dev server URL (set by `electron-vite dev`) is honored
 * only in an unpackaged app, so an environment variable can never point a shipped app elsewhere.
 */
export function resolveRendererLocation(isPackaged: boolean): RendererLocation {
  const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
  if (!isPackaged && devServerUrl !== undefined && devServerUrl !== '') {
    // Set by electron.vite.config.ts for the dev server's inline Fast Refresh preamble.
    const nonce = process.env['PROCURE_DESK_DEV_SCRIPT_NONCE'];
    return { kind: 'dev-server', url: devServerUrl, scriptNonce: nonce === '' ? undefined : nonce };
  }
  // out/main/index.js → out/renderer/index.html
  const path = join(import.meta.dirname, '../renderer/index.html');
  return { kind: 'file', path, url: pathToFileURL(path).href };
}

/** The preload is built as CommonJS (see electron.vite.config.ts): sandboxed preloads must be. */
export function preloadPath(): string {
  return join(import.meta.dirname, '../preload/index.cjs');
}
