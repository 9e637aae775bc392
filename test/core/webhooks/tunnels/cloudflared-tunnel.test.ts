// The cloudflared quick tunnel against a stand-in executable (fixtures/fake-cloudflared.js): found on
// PATH or at a configured path, started with the right arguments, its URL read from stderr,
// restarted with backoff when it dies, and stopped without leaving a process behind.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findQuickTunnelUrl } from '../../../../src/core/webhooks/tunnels/cloudflared-output';
import { cloudflaredArgs } from '../../../../src/core/webhooks/tunnels/cloudflared-tunnel';
import { createTunnel } from '../../../../src/core/webhooks/tunnels/create-tunnel';
import type { CloudflaredStandIn } from './fixtures/cloudflared-stand-in';
import { installCloudflaredStandIn } from './fixtures/cloudflared-stand-in';
import { isAlive, recordingLogger, statusLog, waitFor } from './fixtures/tunnel-test-kit';

const fast = { urlTimeoutMs: 5_000, stopGraceMs: 2_000, backoff: { initialMs: 50, maxMs: 400, stableMs: 60_000 } };

describe.skipIf(process.platform === 'win32')('cloudflared tunnel', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(config: Parameters<typeof installCloudflaredStandIn>[0], options: { onPath?: boolean; timings?: Partial<typeof fast> } = {}) {
    const standIn = await installCloudflaredStandIn(config);
    cleanups.push(() => standIn.remove());
    const { logger, lines } = recordingLogger();
    const onPath = options.onPath ?? true;
    const env = { ...process.env, PATH: onPath ? `${standIn.dir}${delimiter}${process.env.PATH ?? ''}` : (process.env.PATH ?? '') };
    const tunnel = createTunnel(onPath ? { kind: 'cloudflared' } : { kind: 'cloudflared', executablePath: standIn.executable }, {
      logger,
      env,
      cloudflaredTimings: { ...fast, ...options.timings },
    });
    cleanups.push(() => tunnel.stop());
    return { standIn, tunnel, lines };
  }

  async function pids(standIn: CloudflaredStandIn): Promise<number[]> {
    return (await standIn.starts()).map((start) => start.pid);
  }

  it('finds cloudflared on PATH, starts it with the quick-tunnel arguments and reads the URL from stderr', async () => {
    const { standIn, tunnel } = await setUp({ mode: 'url' });
    await expect(tunnel.start(4567)).resolves.toBe('https://stand-in-1.trycloudflare.com');
    const starts = await standIn.starts();
    expect(starts).toHaveLength(1);
    expect(starts[0]?.args).toEqual(['tunnel', '--no-autoupdate', '--url', 'http://127.0.0.1:4567']);
    expect(cloudflaredArgs(4567)).toEqual(starts[0]?.args);
    expect(tunnel.status()).toEqual({ kind: 'cloudflared', up: true, publicUrl: 'https://stand-in-1.trycloudflare.com', lastError: null, restarts: 0 });
  });

  it('uses a configured executable path that is not on PATH', async () => {
    const { tunnel } = await setUp({ mode: 'url' }, { onPath: false });
    await expect(tunnel.start(4568)).resolves.toBe('https://stand-in-1.trycloudflare.com');
  });

  it('restarts a cloudflared that died, reports down then up with the new URL, and stops it without an orphan', async () => {
    const { standIn, tunnel } = await setUp({ mode: 'url' });
    const { changes, listener } = statusLog();
    tunnel.onChange(listener);
    await tunnel.start(4569);
    const [first] = await pids(standIn);
    expect(first).toBeTypeOf('number');
    process.kill(first ?? 0, 'SIGKILL');

    await waitFor(() => tunnel.status().publicUrl === 'https://stand-in-2.trycloudflare.com', 'the restarted tunnel');
    const down = changes.find((status) => !status.up);
    expect(down?.publicUrl).toBeNull();
    expect(down?.lastError).toMatch(/cloudflared exited \(signal SIGKILL\)/);
    expect(tunnel.status()).toMatchObject({ up: true, restarts: 1, lastError: null });
    expect(changes.at(-1)).toMatchObject({ up: true, publicUrl: 'https://stand-in-2.trycloudflare.com', restarts: 1 });

    const all = await pids(standIn);
    expect(all).toHaveLength(2);
    expect(isAlive(first ?? 0)).toBe(false);
    await tunnel.stop();
    for (const pid of all) expect(isAlive(pid)).toBe(false);
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null });
    // Stopped means stopped: nothing is restarted afterwards.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await pids(standIn)).toHaveLength(2);
  });

  it('keeps retrying with backoff while restarts fail, and comes up when cloudflared works again', async () => {
    const { standIn, tunnel } = await setUp({ mode: 'url' });
    await tunnel.start(4570);
    await standIn.configure({ mode: 'exit' });
    const [first] = await pids(standIn);
    process.kill(first ?? 0, 'SIGKILL');
    await waitFor(async () => (await standIn.starts()).length >= 4, 'several failed restarts');
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null });
    expect(tunnel.status().lastError).toMatch(/exited \(code 1\).*no tunnel URL was printed/);
    await standIn.configure({ mode: 'url' });
    await waitFor(() => tunnel.status().up, 'the tunnel back up', 15_000);
    expect(tunnel.status().publicUrl).toMatch(/^https:\/\/stand-in-\d+\.trycloudflare\.com$/);
    expect(tunnel.status().restarts).toBe(1);
  });

  it('kills a cloudflared that ignores SIGTERM once the grace period is over', async () => {
    const { standIn, tunnel, lines } = await setUp({ mode: 'url', ignoreSigterm: true }, { timings: { stopGraceMs: 300 } });
    await tunnel.start(4571);
    const started = await pids(standIn);
    expect(started).toHaveLength(1);
    await tunnel.stop();
    for (const pid of started) expect(isAlive(pid)).toBe(false);
    expect(lines.some((line) => line.includes('cloudflared ignored SIGTERM'))).toBe(true);
  });

  it('rejects start when cloudflared exits before printing a URL, and does not retry', async () => {
    const { standIn, tunnel } = await setUp({ mode: 'exit' });
    await expect(tunnel.start(4572)).rejects.toThrow(/cloudflared exited \(code 1\).*no tunnel URL was printed/);
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await standIn.starts()).toHaveLength(1);
  });

  it('kills a cloudflared that prints no URL in time and rejects start', async () => {
    // Long enough for the stand-in to have started (and recorded itself) before it is killed.
    const { standIn, tunnel } = await setUp({ mode: 'silent' }, { timings: { urlTimeoutMs: 2_000 } });
    await expect(tunnel.start(4573)).rejects.toThrow(/printed no tunnel URL within 2000 ms/);
    const started = await pids(standIn);
    expect(started).toHaveLength(1);
    for (const pid of started) expect(isAlive(pid)).toBe(false);
  });

  it('says cloudflared is not installed when it is neither on PATH nor at the configured path', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'no-cloudflared-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    const { logger } = recordingLogger();
    const onPath = createTunnel({ kind: 'cloudflared' }, { logger, env: { PATH: empty } });
    await expect(onPath.start(4574)).rejects.toThrow('cloudflared is not installed (no cloudflared on PATH)');
    const configured = createTunnel({ kind: 'cloudflared', executablePath: join(empty, 'cloudflared') }, { logger, env: { PATH: empty } });
    await expect(configured.start(4574)).rejects.toThrow(/no executable cloudflared at/);
    expect(configured.status().lastError).toMatch(/no executable cloudflared at/);
  });
});

describe('findQuickTunnelUrl', () => {
  it('reads the URL from the box cloudflared prints', () => {
    expect(findQuickTunnelUrl('2024-05-01T10:00:00Z INF |  https://seven-blue-lamps-sing.trycloudflare.com                           |')).toBe(
      'https://seven-blue-lamps-sing.trycloudflare.com',
    );
  });

  it('ignores the API host in error lines and lines without a tunnel URL', () => {
    expect(findQuickTunnelUrl('ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": EOF')).toBeNull();
    expect(findQuickTunnelUrl('INF Requesting new quick Tunnel on trycloudflare.com...')).toBeNull();
    expect(findQuickTunnelUrl('INF see https://example.com.trycloudflare.com.evil.net')).toBeNull();
  });
});
