// A whole web host (real core, real app service, the sandbox as --demo merchant) driven from a Node
// `ws` client as the browser would: status, the one-click demo, the account, pushed events, refusals,
// and no API key in any frame sent to the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import type { IpcResult } from '../../src/shared/ipc/ipc-result';
import { runWebHost, type RunningWebHost } from '../../src/web-host/run-web-host';
import { fakeRendererDir, openClient, openSession, socketUrl, type WireClient } from './web-host-kit';

const API_KEY_SHAPE = /AK_[0-9A-Fa-f]{8,}/;
const isEvent = (name: string) => (frame: unknown): boolean => typeof frame === 'object' && frame !== null && 'event' in frame && frame.event === name;

describe('web host over real core', () => {
  let host: RunningWebHost;
  let client: WireClient;
  const logLines: string[] = [];
  const notices: string[] = [];

  beforeAll(async () => {
    host = await runWebHost({
      args: { port: 0, dataDir: null, demo: true, rendererDir: fakeRendererDir().dir, exitOnStdinClose: false },
      passphrase: undefined,
      logger: new RedactingLogger({ sink: (line) => logLines.push(line), level: 'info' }),
      notice: (line) => notices.push(line),
      demoOptions: { products: 30 },
    });
    client = await openClient(socketUrl(host.origin, host.socketPath), host.origin, await openSession(host));
  });

  afterAll(async () => {
    client.close();
    await host.stop();
  });

  it('announces that secrets live in memory, and reports the demo control URL', () => {
    expect(notices.join('\n')).toMatch(/in memory .* for this run only/);
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(host.demoControlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.demoControlToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers connection.status, refuses account.get before connecting, and checks inputs', async () => {
    await expect(client.call('connection.status')).resolves.toEqual({
      ok: true,
      value: { connected: false, baseUrl: null, userId: null, keyStored: false, secretStore: 'memory', demo: false, caCert: null },
    });
    await expect(client.call('account.get')).resolves.toMatchObject({ ok: false, error: { code: 'NOT_CONNECTED' } });
    await expect(client.call('catalog.product', { productRef: -1 })).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    await expect(client.call('connection.status', { extra: true })).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('starts the demo merchant, pushes the new connection and account, then answers account.get', async () => {
    const started = (await client.call('connection.startDemo')) as IpcResult<{ balanceFen: number; accessState: string }>;
    expect(started).toMatchObject({ ok: true, value: { balanceFen: 1_000_000, accessState: expect.any(String) as unknown } });
    await expect(client.waitFor((f) => isEvent('connection.changed')(f) && (f as { payload: { connected: boolean } }).payload.connected)).resolves.toMatchObject({
      payload: { connected: true, demo: true, keyStored: true, secretStore: 'memory' },
    });
    await expect(client.waitFor(isEvent('account.changed'))).resolves.toMatchObject({ payload: { balanceFen: 1_000_000 } });
    await expect(client.call('account.get')).resolves.toMatchObject({ ok: true, value: { balanceFen: 1_000_000, currency: expect.any(String) as unknown } });
    await expect(client.call('connection.status')).resolves.toMatchObject({ ok: true, value: { connected: true, demo: true } });
  });

  it('keeps API keys out of every frame, even a refused key echoed by an error', async () => {
    const status = (await client.call('connection.status')) as { ok: true; value: { baseUrl: string; userId: string } };
    const wrongKey = 'AK_0123456789abcdef0123456789abcdef';
    const refused = await client.call('connection.connect', { baseUrl: status.value.baseUrl, userId: status.value.userId, apiKey: wrongKey, caCertPem: null });
    expect(refused.ok).toBe(false);
    for (const frame of client.frames) expect(JSON.stringify(frame)).not.toMatch(API_KEY_SHAPE);
    for (const line of logLines) expect(line).not.toMatch(API_KEY_SHAPE);
    // The refused attempt did not replace the working connection.
    await expect(client.call('account.get')).resolves.toMatchObject({ ok: true });
  });
});
