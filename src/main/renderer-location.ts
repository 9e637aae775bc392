import { join } from 'node:path';
import { APP_INDEX_URL } from './app-protocol';

export type RendererLocation =
  | { kind: 'dev-server'; url: string; scriptNonce: string | undefined }
  | { kind: 'app-protocol'; root: string; url: string };

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
  // out/main/index.js → out/renderer, served as app://procure-desk/ (app-protocol.ts).
  return { kind: 'app-protocol', root: join(import.meta.dirname, '../renderer'), url: APP_INDEX_URL };
}

/** The preload is built as CommonJS (see electron.vite.config.ts): sandboxed preloads must be. */
export function preloadPath(): string {
  return join(import.meta.dirname, '../preload/index.cjs');
}
