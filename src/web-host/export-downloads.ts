// vault.export in the web host. The buyer's disk is the browser's, not this process's (and a headless
// box has no save dialog), so a finished export is handed to the tab that asked as a download: core
// writes it (same encryption, same audit row) into a private folder of its own under the host's
// staging folder, the answer carries a one-time address instead of a path, and the first fetch of
// that address by the same browser session gets the bytes, read into memory, after the folder is
// deleted. An address not fetched within the time limit is deleted too; nothing stays on the host.
// Which session asked is carried through the call by an AsyncLocalStorage (as browser-clipboard.ts
// does for the tab), set around each call a socket serves.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, join } from 'node:path';
import type { IpcResult } from '../shared/ipc/ipc-result';
import { exportResultSchema } from '../shared/ipc/views/vault';
import { WEB_EXPORT_DOWNLOAD_PATH } from '../shared/ipc/web-socket-protocol';
import type { BrowserSessions } from './browser-sessions';
import { COMMON_HEADERS } from './web-page-security';

/** Long enough for the tab to start the download it asked for; short enough that nothing lingers. */
export const EXPORT_DOWNLOAD_TTL_MS = 120_000;

/** Each export's own folder under the staging folder; only these are ever swept. */
const STAGE_PREFIX = 'download-';
/** Spent tokens remembered to answer 410 rather than 404; a cap keeps memory bounded. */
const MAX_SPENT = 256;

export class ExportDownloadError extends Error {
  override readonly name = 'ExportDownloadError';
}

export interface ExportDownloads {
  /** Runs one call of a socket whose browser holds `sessionId`; a vault.export answer becomes a download. */
  runFor(sessionId: string, call: () => Promise<IpcResult<unknown>>): Promise<IpcResult<unknown>>;
  /** AppHost.chooseExportPath: a file in a fresh private folder, for the session whose call this is. */
  choosePath(suggestedFileName: string): Promise<string>;
  /** Serves `WEB_EXPORT_DOWNLOAD_PATH<token>`: once, to the session that exported, before it expires. */
  serve(request: IncomingMessage, response: ServerResponse, sessions: BrowserSessions | null): void;
  /** Deletes every staged folder whose export is still being written (its core process died). */
  dropUnfinished(): void;
  /** Deletes everything staged (start-up and stop): a download nobody fetched is gone. */
  clear(): void;
}

interface CallRecord {
  readonly sessionId: string;
  readonly folders: string[];
}

interface Offer {
  readonly sessionId: string;
  readonly path: string;
  readonly fileName: string;
  readonly timer: ReturnType<typeof setTimeout>;
}

function refuse(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${text}\n`);
}

/** `attachment` with the export's name: an ASCII fallback and the exact name in RFC 5987 form. */
export function attachmentHeader(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function createExportDownloads(dir: string, ttlMs = EXPORT_DOWNLOAD_TTL_MS): ExportDownloads {
  const caller = new AsyncLocalStorage<CallRecord>();
  const writing = new Set<string>();
  const offers = new Map<string, Offer>();
  const spent = new Set<string>();
  const remove = (folder: string): void => rmSync(folder, { recursive: true, force: true });
  const spend = (token: string): void => {
    const offer = offers.get(token);
    if (offer === undefined) return;
    offers.delete(token);
    clearTimeout(offer.timer);
    remove(dirname(offer.path));
    spent.add(token);
    for (const old of spent) {
      if (spent.size <= MAX_SPENT) break;
      spent.delete(old);
    }
  };

  /** The answer with the written file offered for download, or the answer as it was (and its folders deleted). */
  const settle = (record: CallRecord, result: IpcResult<unknown>): IpcResult<unknown> => {
    const written = result.ok ? exportResultSchema.safeParse(result.value) : null;
    const path = written?.success === true && written.data.status === 'written' ? written.data.path : null;
    for (const folder of record.folders) {
      writing.delete(folder);
      if (path === null || dirname(path) !== folder) remove(folder);
    }
    if (written?.success !== true || written.data.status !== 'written' || path === null || !record.folders.includes(dirname(path))) return result;
    const token = randomBytes(32).toString('base64url');
    const timer = setTimeout(() => spend(token), ttlMs);
    timer.unref();
    offers.set(token, { sessionId: record.sessionId, path, fileName: written.data.fileName, timer });
    // The host's folder means nothing to the buyer: the answer names the file the browser saves.
    return { ok: true, value: { ...written.data, path: written.data.fileName, downloadUrl: `${WEB_EXPORT_DOWNLOAD_PATH}${token}` } };
  };

  return {
    async runFor(sessionId, call) {
      const record: CallRecord = { sessionId, folders: [] };
      let result: IpcResult<unknown>;
      try {
        result = await caller.run(record, call);
      } catch (error) {
        settle(record, { ok: false, error: { code: 'INTERNAL', message: 'the call failed' } });
        throw error;
      }
      return settle(record, result);
    },

    choosePath(suggestedFileName) {
      const record = caller.getStore();
      if (record === undefined) return Promise.reject(new ExportDownloadError('no browser session asked for this export'));
      // mkdtemp makes the folder 0700: the file is this user's only, for the moment it exists.
      const folder = mkdtempSync(join(dir, STAGE_PREFIX));
      record.folders.push(folder);
      writing.add(folder);
      return Promise.resolve(join(folder, basename(suggestedFileName)));
    },

    serve(request, response, sessions) {
      if (request.method !== 'GET') {
        refuse(response, 405, 'method not allowed');
        return;
      }
      const sessionId = sessions?.sessionOf(request.headers.cookie) ?? null;
      if (sessionId === null) {
        refuse(response, 403, 'no session');
        return;
      }
      const token = (request.url ?? '').split('?', 1)[0]?.slice(WEB_EXPORT_DOWNLOAD_PATH.length) ?? '';
      const offer = offers.get(token);
      if (offer === undefined) {
        refuse(response, spent.has(token) ? 410 : 404, spent.has(token) ? 'this download was already taken or has expired: export again' : 'no such download');
        return;
      }
      // Another browser session (another person's tab) never gets it, and does not spend it either.
      if (offer.sessionId !== sessionId) {
        refuse(response, 403, 'this download belongs to another session');
        return;
      }
      let body: Buffer;
      try {
        body = readFileSync(offer.path);
      } catch {
        spend(token);
        refuse(response, 410, 'the export is no longer on the host: export again');
        return;
      }
      spend(token);
      response.writeHead(200, {
        ...COMMON_HEADERS,
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(body.byteLength),
        'Content-Disposition': attachmentHeader(offer.fileName),
        'Cache-Control': 'no-store',
      });
      response.end(body);
    },

    dropUnfinished() {
      for (const folder of writing) remove(folder);
      writing.clear();
    },

    clear() {
      for (const token of [...offers.keys()]) spend(token);
      writing.clear();
      for (const name of readdirSync(dir)) if (name.startsWith(STAGE_PREFIX)) remove(join(dir, name));
    },
  };
}
