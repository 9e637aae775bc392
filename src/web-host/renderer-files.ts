// The built renderer (out/renderer) as a fixed table of files, read once at start: a request can only
// ever name one of these, so path traversal, symlinks out of the folder and directory listings are
// impossible by construction rather than by string checks alone.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { RENDERER_CONTENT_TYPES } from '../shared/renderer-content-types';

export interface RendererFile {
  readonly body: Buffer;
  readonly contentType: string;
}

export interface RendererFiles {
  /** index.html as built, before the host adds its bridge meta tag. */
  readonly indexHtml: string;
  /** The file for a decoded URL path such as `/assets/index-abc.js`, or null. */
  get(urlPath: string): RendererFile | null;
}

export class RendererNotBuiltError extends Error {
  override readonly name = 'RendererNotBuiltError';
  constructor(dir: string) {
    super(`no built renderer in ${dir}: run \`ELECTRON_SKIP_BINARY_DOWNLOAD=1 npx electron-vite build\` first`);
  }
}

/** Bounds the table so that a wrong --renderer folder (say, $HOME) cannot eat the memory. */
const MAX_FILES = 5_000;
const MAX_TOTAL_BYTES = 200 * 1024 * 1024;

function walk(root: string, dir: string, found: Map<string, string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, full, found);
    else if (entry.isFile()) {
      if (found.size >= MAX_FILES) throw new Error(`${root} holds more than ${MAX_FILES} files: is it really the built renderer?`);
      found.set(`/${relative(root, full).split(sep).join('/')}`, full);
    }
    // Symlinks and special files are skipped: the build never makes them.
  }
}

export function loadRendererFiles(dir: string): RendererFiles {
  let root: string;
  try {
    root = realpathSync(dir);
    if (!statSync(join(root, 'index.html')).isFile()) throw new RendererNotBuiltError(dir);
  } catch {
    throw new RendererNotBuiltError(dir);
  }
  const paths = new Map<string, string>();
  walk(root, root, paths);
  const files = new Map<string, RendererFile>();
  let total = 0;
  for (const [urlPath, full] of paths) {
    const type = RENDERER_CONTENT_TYPES[extname(full).toLowerCase()];
    if (type === undefined) continue;
    const body = readFileSync(full);
    total += body.length;
    if (total > MAX_TOTAL_BYTES) throw new Error(`${root} holds more than ${MAX_TOTAL_BYTES} bytes: is it really the built renderer?`);
    files.set(urlPath, { body, contentType: type });
  }
  const index = files.get('/index.html');
  if (index === undefined) throw new RendererNotBuiltError(dir);
  return {
    indexHtml: index.body.toString('utf8'),
    get: (urlPath) => files.get(urlPath) ?? null,
  };
}
