// Starts a whole sandbox merchant in this process: catalog, merchant state, webhook dispatcher, the
// HTTPS interface and the control API, all on 127.0.0.1. Used by the CLI and by in-process benchmarks.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedCatalog } from './catalog/seed-catalog';
import { createScaledClock } from './clock';
import { createControlHandler } from './control/control-server';
import { createMerchant, type Merchant } from './domain/merchant';
import { noFaults } from './http/fault-settings';
import { createRequestLog } from './http/request-log';
import { createCredentialLog } from './http/credential-log';
import { BASE_PATH, createOpenApiHandler } from './http/openapi-server';
import { createRateLimiter } from './limits/rate-limiter';
import type { SandboxOptions } from './sandbox-options';
import { prepareSandboxTls } from './tls/certificate-authority';
import { createListenerControl } from './control/listener-control';
import { createWebhookDispatcher } from './webhooks/webhook-dispatcher';

export interface SandboxAddress {
  baseUrl: string;
  controlUrl: string;
  /** The control API's bearer token (control/control-access.ts): a secret, never logged. */
  controlToken: string;
  userId: string;
  apiKey: string;
  caCertFile: string;
}

export interface RunningSandbox extends SandboxAddress {
  merchant: Merchant;
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const SANDBOX_IPS = ['127.0.0.1', '::1'] as const;

export async function startSandbox(options: SandboxOptions, log: (line: string) => void): Promise<RunningSandbox> {
  const clock = createScaledClock(options.timeScale);
  // A CA folder of our own making is removed on stop; one the user named is theirs to keep.
  const ownCaDir = options.caDir === null;
  const caDir = options.caDir ?? mkdtempSync(join(tmpdir(), 'procure-sandbox-ca-'));
  const hostnames = ['localhost', ...(/^[\d.]+$/.test(options.domain) ? [] : [options.domain, `*.${options.domain}`])];
  const tls = await prepareSandboxTls({ dir: caDir, hostnames, ipAddresses: [...SANDBOX_IPS] });

  const started = Date.now();
  const catalog = seedCatalog({ products: options.products, seed: options.seed, nowSeconds: clock.nowSeconds() });
  log(`catalog: ${catalog.products.length} products in ${catalog.categories.length} categories (seed ${options.seed}) in ${Date.now() - started} ms`);

  const dispatcher = createWebhookDispatcher({ clock, log, tlsCa: tls.caCertPem });
  const merchant = createMerchant({
    clock,
    catalog,
    dispatcher,
    settings: { autoAdvance: options.autoAdvance, callbackPolicy: options.callbackPolicy },
    subscriptionTtlSeconds: options.subscriptionTtlSeconds,
  });
  const account = merchant.ctx.accounts.create(options.balanceFen);
  const faults = noFaults();
  const limiter = createRateLimiter(clock);

  const credentials = createCredentialLog();
  const requests = createRequestLog();
  const apiHandler = createOpenApiHandler({ merchant, limiter, faults, domain: options.domain, log, credentials, requests });
  const httpsApi = options.http ? null : createHttpsServer({ cert: tls.serverCertPem, key: tls.serverKeyPem }, apiHandler);
  const api: Server = httpsApi ?? createHttpServer(apiHandler);
  // Slow clients must not hold sockets forever.
  api.headersTimeout = 10_000;
  api.requestTimeout = 30_000;
  const controlToken = randomBytes(32).toString('base64url');
  let controlPort = 0;
  let apiPort = 0;
  const listener = createListenerControl({
    server: api,
    port: () => apiPort,
    tls: httpsApi === null ? null : { server: httpsApi, ca: tls.ca, good: { certPem: tls.serverCertPem, keyPem: tls.serverKeyPem }, hostnames, ipAddresses: [...SANDBOX_IPS] },
  });
  const control = createHttpServer(createControlHandler({ merchant, faults, listener, dispatcher, credentials, requests, token: controlToken, port: () => controlPort }));
  apiPort = await listen(api, options.port);
  controlPort = await listen(control, options.controlPort);

  let stopped = false;
  return {
    baseUrl: `${options.http ? 'http' : 'https'}://127.0.0.1:${apiPort}${BASE_PATH}`,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    controlToken,
    userId: account.userId,
    apiKey: account.apiKey,
    caCertFile: tls.caCertFile,
    merchant,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([listener.state().refuseConnections ? Promise.resolve() : close(api), close(control), dispatcher.stop()]);
      if (ownCaDir) rmSync(caDir, { recursive: true, force: true });
    },
  };
}
