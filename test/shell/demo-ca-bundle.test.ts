// The demo merchant's CA as the packaged app runs it: main's bundle (electron-vite, which is Vite) keeps
// every package external, and in an ES module external imports are evaluated before any bundled code.
// @peculiar/x509 must still find the Reflect metadata API it needs (src/sandbox/tls/x509.ts): here the
// sandbox's TLS module is bundled by Vite the same way, loaded by Node from the build, and used.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { prepareSandboxTls } from '../../src/sandbox/tls/certificate-authority';

const root = join(import.meta.dirname, '../..');
const outDir = mkdtempSync(join(tmpdir(), 'pd-demo-ca-bundle-'));
const entry = join(outDir, 'certificate-authority.js');

beforeAll(async () => {
  const savedNodeEnv = process.env['NODE_ENV'];
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'silent',
      build: { ssr: join(root, 'src/sandbox/tls/certificate-authority.ts'), outDir, minify: false, rolldownOptions: { output: { format: 'es', entryFileNames: '[name].js' } } },
    });
  } finally {
    process.env['NODE_ENV'] = savedNodeEnv;
  }
  // Packages resolve from the project's node_modules, as they do in the app.
  symlinkSync(join(root, 'node_modules'), join(outDir, 'node_modules'));
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The bundle's own prepareSandboxTls (the build keeps its exports). */
async function bundledPrepare(): Promise<typeof prepareSandboxTls> {
  const bundled: unknown = await import(pathToFileURL(entry).href);
  const isPrepare = (value: unknown): value is typeof prepareSandboxTls => typeof value === 'function';
  if (typeof bundled === 'object' && bundled !== null && 'prepareSandboxTls' in bundled && isPrepare(bundled.prepareSandboxTls)) return bundled.prepareSandboxTls;
  throw new Error('the bundle does not export prepareSandboxTls');
}

describe('the demo CA, bundled', () => {
  it('keeps @peculiar/x509 external and loads it only once the Reflect polyfill is installed', () => {
    const code = readFileSync(entry, 'utf8');
    expect(code).toContain('import("@peculiar/x509")');
    expect(code).not.toMatch(/^import [^;]*from "@peculiar\/x509"/m);
  });

  it('makes a CA and a server certificate when run from the bundle', async () => {
    const prepare = await bundledPrepare();
    const tls = await prepare({ dir: join(outDir, 'ca'), hostnames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    const ca = new X509Certificate(tls.caCertPem);
    const server = new X509Certificate(tls.serverCertPem);
    expect(ca.ca).toBe(true);
    expect(server.checkIssued(ca) && server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });
});
