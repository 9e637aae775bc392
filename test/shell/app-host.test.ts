import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElectronAppHost } from '../../src/main/app-host';
import type { ClipboardWriter } from '../../src/main/clipboard';
import type { RunningSandbox } from '../../src/sandbox/start-sandbox';
import type { SandboxOptions } from '../../src/sandbox/sandbox-options';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pd-app-host-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeSandboxStarter(caFile: string) {
  const stop = vi.fn(() => Promise.resolve());
  const start = vi.fn((options: SandboxOptions, _log: (line: string) => void) =>
    Promise.resolve({ baseUrl: 'https://127.0.0.1:4443/openapi/v1', controlUrl: 'http://127.0.0.1:4444', userId: '170001', apiKey: 'AK_demo', caCertFile: caFile, caDir: options.caDir, stop } as unknown as RunningSandbox),
  );
  return { start, stop };
}

describe('Electron AppHost', () => {
  it('starts the demo merchant once, with its CA in the given folder, and stops it', async () => {
    const caFile = join(dir, 'ca-cert.pem');
    writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n');
    const sandbox = fakeSandboxStarter(caFile);
    const clipboard: ClipboardWriter = { write: vi.fn(() => Promise.resolve({ clearsInSeconds: 30 })), clearIfOurs: vi.fn(() => Promise.resolve()) };
    const host = createElectronAppHost({ clipboard, demoCaDir: join(dir, 'demo-ca'), log: () => undefined, startDemo: sandbox.start });
    const [a, b] = await Promise.all([host.startDemoMerchant(), host.startDemoMerchant()]);
    expect(a).toEqual({ baseUrl: 'https://127.0.0.1:4443/openapi/v1', userId: '170001', apiKey: 'AK_demo', caCertPem: expect.stringContaining('BEGIN CERTIFICATE') as string });
    expect(b).toEqual(a);
    expect(sandbox.start).toHaveBeenCalledTimes(1);
    expect(sandbox.start.mock.calls[0]?.[0]).toMatchObject({ caDir: join(dir, 'demo-ca'), port: 0, exitOnStdinClose: false });
    await host.stop();
    expect(sandbox.stop).toHaveBeenCalledTimes(1);
  });

  it('lets a failed demo start be retried', async () => {
    const start = vi.fn().mockRejectedValueOnce(new Error('EADDRINUSE'));
    const host = createElectronAppHost({ clipboard: { write: vi.fn(() => Promise.resolve({ clearsInSeconds: 30 })), clearIfOurs: vi.fn(() => Promise.resolve()) }, demoCaDir: dir, log: () => undefined, startDemo: start });
    await expect(host.startDemoMerchant()).rejects.toThrow('EADDRINUSE');
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, 'pem');
    start.mockImplementationOnce(fakeSandboxStarter(caFile).start);
    await expect(host.startDemoMerchant()).resolves.toMatchObject({ userId: '170001', caCertPem: 'pem' });
  });

  it('writes the clipboard through main with the delay the service asks for', async () => {
    const write = vi.fn(() => Promise.resolve({ clearsInSeconds: 30 }));
    const host = createElectronAppHost({ clipboard: { write, clearIfOurs: vi.fn(() => Promise.resolve()) }, demoCaDir: dir, log: () => undefined });
    await host.writeClipboard?.('CARD-1', 30_000);
    expect(write).toHaveBeenCalledWith('CARD-1', 30_000);
  });
});
