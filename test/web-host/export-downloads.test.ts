// The web host's export downloads: vault.export's file is offered to the session whose socket asked,
// at a one-time address; without a session the address answers 403, to another session 403 (and stays
// for its owner), once fetched or expired 410, unknown 404; the bytes come with Content-Disposition
// attachment and no-store, and the staging folder is empty afterwards, as it is after a failed export.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src/shared/ipc/ipc-result';
import { attachmentHeader, createExportDownloads, type ExportDownloads } from '../../src/web-host/export-downloads';
import { loadRendererFiles } from '../../src/web-host/renderer-files';
import { startWebHost, type WebHost } from '../../src/web-host/web-host-server';
import { fakeRendererDir, fakeService, openClient, openSession, quietLogger, socketUrl } from './web-host-kit';

const FILE = '卡密导出-2026.xlsx';
const BYTES = Buffer.from('encrypted workbook bytes');

let dir: string;
let downloads: ExportDownloads;
let host: WebHost;
/** What the fake core does for vault.export: writes where the host says, or fails after choosing. */
let failExport = false;

async function start(ttlMs?: number): Promise<void> {
  downloads = createExportDownloads(dir, ttlMs);
  const fake = fakeService(async (channel): Promise<IpcResult<unknown>> => {
    if (channel !== 'vault.export') return { ok: true, value: null };
    const path = await downloads.choosePath(`../${FILE}`);
    if (failExport) return { ok: false, error: { code: 'INVALID_INPUT', message: 'weak password' } };
    writeFileSync(path, BYTES);
    return { ok: true, value: { status: 'written', path, fileName: FILE, count: 3, format: 'xlsx' } };
  });
  host = await startWebHost({ service: fake.service, renderer: loadRendererFiles(fakeRendererDir().dir), logger: quietLogger, port: 0, exportDownloads: downloads });
}

/** Opens a session, exports through its socket, and answers the cookie and the answer's value. */
async function exportAs(): Promise<{ cookie: string; value: Record<string, unknown> }> {
  const cookie = await openSession(host);
  const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin, cookie);
  const result = await client.call('vault.export', {});
  client.close();
  if (!result.ok) throw new Error(`export refused: ${result.error.message}`);
  return { cookie, value: result.value as Record<string, unknown> };
}

const fetchAs = (path: string, cookie?: string): Promise<Response> => fetch(`${host.origin}${path}`, cookie === undefined ? {} : { headers: { Cookie: cookie } });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'procure-web-downloads-'));
  failExport = false;
});

afterEach(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('web host export downloads', () => {
  it('offers the file once, to the session that exported it, then leaves nothing on the host', async () => {
    await start();
    const { cookie, value } = await exportAs();
    expect(value).toMatchObject({ status: 'written', path: FILE, fileName: FILE, count: 3, format: 'xlsx' });
    const url = String(value.downloadUrl);
    expect(url).toMatch(/^\/export-download\/[A-Za-z0-9_-]{43}$/);
    expect(readdirSync(dir)).toHaveLength(1);

    expect((await fetchAs(url)).status).toBe(403);
    const other = await openSession(host);
    expect((await fetchAs(url, other)).status).toBe(403);
    expect((await fetchAs('/export-download/not-a-token', cookie)).status).toBe(404);

    const answer = await fetchAs(url, cookie);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(BYTES);
    expect(answer.headers.get('content-disposition')).toBe(attachmentHeader(FILE));
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(readdirSync(dir)).toEqual([]);

    expect((await fetchAs(url, cookie)).status).toBe(410);
    expect((await fetch(`${host.origin}${url}`, { method: 'POST', headers: { Cookie: cookie } })).status).toBe(405);
  });

  it('deletes a download nobody fetched when its address expires', async () => {
    await start(50);
    const { cookie, value } = await exportAs();
    await expect.poll(() => readdirSync(dir), { timeout: 5_000 }).toEqual([]);
    expect((await fetchAs(String(value.downloadUrl), cookie)).status).toBe(410);
  });

  it('deletes the staging folder of an export that failed, and offers nothing', async () => {
    await start();
    failExport = true;
    const cookie = await openSession(host);
    const client = await openClient(socketUrl(host.origin, host.socketPath), host.origin, cookie);
    const result = await client.call('vault.export', {});
    client.close();
    expect(result).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'weak password' } });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stages nothing for a call no browser session made, and clears what is staged', async () => {
    await start();
    await expect(downloads.choosePath(FILE)).rejects.toThrow(/no browser session/);
    await exportAs();
    expect(readdirSync(dir)).toHaveLength(1);
    writeFileSync(join(dir, 'operator-notes.txt'), 'kept');
    downloads.clear();
    expect(readdirSync(dir)).toEqual(['operator-notes.txt']);
    expect(existsSync(join(dir, 'operator-notes.txt'))).toBe(true);
  });

  it('names the file in Content-Disposition with an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentHeader('cards "a".csv')).toBe(`attachment; filename="cards _a_.csv"; filename*=UTF-8''cards%20%22a%22.csv`);
    expect(attachmentHeader(FILE)).toBe(`attachment; filename="____-2026.xlsx"; filename*=UTF-8''${encodeURIComponent(FILE)}`);
  });
});
