// Benchmark (h): how long the connect test takes to name each failure (issue 14: refused, DNS and TLS
// within 3 s, no retries before a connection ever worked). Real core (createCore, the HTTPS port,
// SQLite on disk) against throwaway merchants on 127.0.0.1 (test/support/connect-test-servers.ts);
// each kind is tried RUNS times, the median and the worst are printed with the attempts the transport
// saw (always 1: the probe is never retried). The silent merchant shows the probe's timeout itself.
// DNS is the machine's resolver answering for a `.invalid` name, so it varies with the resolver.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toIpcError } from '../src/core/app/error-mapping';
import { createCore, type Core } from '../src/core/create-core';
import { RedactingLogger } from '../src/core/logging/redacting-logger';
import type { HttpPort } from '../src/core/merchant/http-port';
import { createNodeHttpsPort } from '../src/core/merchant/node-https-port';
import { MemorySecretStore } from '../src/core/secrets/memory-secret-store';
import {
  closedPortUrl,
  createCertificateAuthority,
  envelopeReply,
  expiredCertificate,
  HTML_404_REPLY,
  localCertificate,
  otherHostCertificate,
  startHttpServer,
  startHttpsServer,
  UNRESOLVABLE_URL,
  type TestServer,
} from '../test/support/connect-test-servers';

const RUNS = 5;
const KEY = `AK_${'ab'.repeat(16)}`;

interface Case {
  kind: string;
  baseUrl: string;
  ca: string | null;
}

async function timeCase(core: Core, attempts: { count: number }, logger: RedactingLogger, item: Case, runs: number): Promise<{ ms: number[]; named: string; attempts: number }> {
  const ms: number[] = [];
  let named = '';
  const before = attempts.count;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    try {
      await core.connect({ baseUrl: item.baseUrl, userId: '170001', apiKey: KEY, caCertPem: item.ca });
      named = 'connected';
    } catch (error) {
      const ipc = toIpcError(error, logger, 'connection.connect');
      named = ipc.transportReason ?? (typeof ipc.merchantCode === 'number' ? String(ipc.merchantCode) : (ipc.fields?.[0]?.message ?? ipc.code));
    }
    ms.push(performance.now() - started);
  }
  return { ms, named, attempts: (attempts.count - before) / runs };
}

export async function benchConnectFailures(): Promise<{ lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-bench-connect-'));
  const logger = new RedactingLogger({ sink: () => undefined, level: 'error' });
  const attempts = { count: 0 };
  const http = (ca: string | null): HttpPort => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    return (request) => {
      attempts.count++;
      return port(request);
    };
  };
  const core = await createCore({ dataDir, secrets: new MemorySecretStore(), logger, http });
  const ca = await createCertificateAuthority();
  const servers: TestServer[] = [];
  const serve = async (start: Promise<TestServer>): Promise<string> => {
    const server = await start;
    servers.push(server);
    return server.baseUrl;
  };
  try {
    const cases: Case[] = [
      { kind: 'refused', baseUrl: await closedPortUrl(), ca: null },
      { kind: 'dns', baseUrl: UNRESOLVABLE_URL, ca: null },
      { kind: 'tlsUntrusted', baseUrl: await serve(startHttpsServer(await localCertificate(await createCertificateAuthority()))), ca: null },
      { kind: 'tlsHostname', baseUrl: await serve(startHttpsServer(await otherHostCertificate(ca))), ca: ca.certPem },
      { kind: 'tlsExpired', baseUrl: await serve(startHttpsServer(await expiredCertificate(ca))), ca: ca.certPem },
      { kind: 'insecure (http://)', baseUrl: await serve(startHttpServer()), ca: null },
      { kind: 'notOpenApi (404 page)', baseUrl: await serve(startHttpsServer(await localCertificate(ca), HTML_404_REPLY)), ca: ca.certPem },
      { kind: 'keyInvalid (401)', baseUrl: await serve(startHttpsServer(await localCertificate(ca), envelopeReply(401, 401001))), ca: ca.certPem },
      { kind: 'ipDenied (403)', baseUrl: await serve(startHttpsServer(await localCertificate(ca), envelopeReply(403, 403002))), ca: ca.certPem },
      { kind: 'timeout (silent)', baseUrl: await serve(startHttpsServer(await localCertificate(ca), { status: 200, body: '', hang: true })), ca: ca.certPem },
    ];
    const lines = [`(h) connect failures: ms to the named failure, median / worst of ${RUNS} (attempts per connect)`];
    for (const item of cases) {
      // The silent merchant waits the probe's whole timeout: once is enough to show it.
      const { ms, named, attempts: perConnect } = await timeCase(core, attempts, logger, item, item.kind.startsWith('timeout') ? 1 : RUNS);
      const sorted = [...ms].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
      const worst = sorted[sorted.length - 1] ?? 0;
      lines.push(`  ${item.kind.padEnd(24)} ${median.toFixed(0).padStart(6)} ms / ${worst.toFixed(0).padStart(6)} ms  named ${named}, ${perConnect} attempt(s)`);
    }
    return { lines };
  } finally {
    for (const server of servers) await server.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchConnectFailures()
    .then(({ lines }) => {
      for (const line of lines) console.log(line);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
