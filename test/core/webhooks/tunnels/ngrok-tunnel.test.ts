// The ngrok adapter with the `@ngrok/ngrok` module replaced through its loader (the real agent
// needs the internet): the authtoken comes from the secret store and never reaches a log line or
// an error, the endpoint URL is read from the listener, status changes are passed on, stop closes.
import { describe, expect, it } from 'vitest';
import { createTunnel } from '../../../../src/core/webhooks/tunnels/create-tunnel';
import type { NgrokForwardConfig, NgrokListener, NgrokModule } from '../../../../src/core/webhooks/tunnels/ngrok-tunnel';
import { NGROK_AUTHTOKEN_SECRET, loadNgrokModule, saveNgrokAuthtoken } from '../../../../src/core/webhooks/tunnels/ngrok-tunnel';
import { MemorySecretStore } from '../../../../src/core/secrets/memory-secret-store';
import { recordingLogger, statusLog } from './fixtures/tunnel-test-kit';

const TOKEN = '2abcDEFghiJKLmnoPQRstu_3vwxYZ0123456789abcdefGHIJ';

function fakeNgrok(options: { url?: string | null; fail?: Error; never?: boolean } = {}) {
  const calls: NgrokForwardConfig[] = [];
  let closed = 0;
  const listener: NgrokListener = {
    url: () => (options.url === undefined ? 'https://a1b2-203-0-113-7.ngrok-free.app' : options.url),
    close: () => {
      closed++;
      return Promise.resolve();
    },
  };
  const module: NgrokModule = {
    forward: (config) => {
      calls.push(config);
      if (options.never === true) return new Promise<NgrokListener>(() => undefined);
      return options.fail ? Promise.reject(options.fail) : Promise.resolve(listener);
    },
  };
  return { module, calls, closedCount: () => closed };
}

async function setUp(fake: ReturnType<typeof fakeNgrok>, storeToken = true) {
  const secrets = new MemorySecretStore();
  if (storeToken) await saveNgrokAuthtoken(secrets, `  ${TOKEN}\n`);
  const { logger, lines } = recordingLogger();
  const tunnel = createTunnel({ kind: 'ngrok' }, { logger, secrets, loadNgrok: () => Promise.resolve(fake.module), ngrokStartTimeoutMs: 300 });
  return { tunnel, lines, secrets };
}

describe('ngrok tunnel', () => {
  it('forwards 127.0.0.1:port over http with the stored authtoken and returns the endpoint URL', async () => {
    const fake = fakeNgrok();
    const { tunnel, lines, secrets } = await setUp(fake);
    expect(await secrets.get(NGROK_AUTHTOKEN_SECRET)).toBe(TOKEN);
    await expect(tunnel.start(8123)).resolves.toBe('https://a1b2-203-0-113-7.ngrok-free.app');
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ addr: '127.0.0.1:8123', authtoken: TOKEN, proto: 'http' });
    expect(tunnel.status()).toEqual({ kind: 'ngrok', up: true, publicUrl: 'https://a1b2-203-0-113-7.ngrok-free.app', lastError: null, restarts: 0 });
    expect(lines.join('\n')).not.toContain(TOKEN);

    await tunnel.stop();
    expect(fake.closedCount()).toBe(1);
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null });
    await tunnel.stop();
    expect(fake.closedCount()).toBe(1);
  });

  it('passes the agent connection going down and coming back on as status changes', async () => {
    const fake = fakeNgrok();
    const { tunnel } = await setUp(fake);
    const { changes, listener } = statusLog();
    tunnel.onChange(listener);
    await tunnel.start(8124);
    const onStatusChange = fake.calls[0]?.onStatusChange;
    onStatusChange?.('closed');
    expect(tunnel.status()).toMatchObject({ up: false, lastError: 'ngrok connection lost' });
    onStatusChange?.('connected');
    expect(tunnel.status()).toMatchObject({ up: true, lastError: null, restarts: 1, publicUrl: 'https://a1b2-203-0-113-7.ngrok-free.app' });
    expect(changes.map((status) => status.up)).toEqual([true, false, true]);
    await tunnel.stop();
    // After stop, late callbacks from the agent change nothing.
    onStatusChange?.('connected');
    expect(tunnel.status().up).toBe(false);
  });

  it('refuses to start without a stored authtoken, without loading ngrok', async () => {
    const fake = fakeNgrok();
    const { tunnel } = await setUp(fake, false);
    await expect(tunnel.start(8125)).rejects.toThrow(`no ngrok authtoken is stored (secret "${NGROK_AUTHTOKEN_SECRET}")`);
    expect(fake.calls).toHaveLength(0);
    expect(tunnel.status().lastError).toMatch(/no ngrok authtoken/);
  });

  it('keeps the authtoken out of the error and the logs when the agent fails with it in the message', async () => {
    const fake = fakeNgrok({ fail: new Error(`authentication failed: The authtoken ${TOKEN} is invalid [ERR_NGROK_105]`) });
    const { tunnel, lines } = await setUp(fake);
    const failure = tunnel.start(8126);
    await expect(failure).rejects.toThrow(/ngrok failed to start: authentication failed: The authtoken \*\*\* is invalid \[ERR_NGROK_105\]/);
    expect(tunnel.status().lastError).not.toContain(TOKEN);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('fails with a clear message when the package cannot be loaded, so the app runs without it', async () => {
    const { logger } = recordingLogger();
    const secrets = new MemorySecretStore();
    await saveNgrokAuthtoken(secrets, TOKEN);
    const tunnel = createTunnel({ kind: 'ngrok' }, { logger, secrets, loadNgrok: () => Promise.reject(new Error("Cannot find module '@ngrok/ngrok'")) });
    await expect(tunnel.start(8127)).rejects.toThrow(/ngrok support is not available on this system: Cannot find module/);
  });

  it('rejects an endpoint without an https URL and closes it', async () => {
    const fake = fakeNgrok({ url: null });
    const { tunnel } = await setUp(fake);
    await expect(tunnel.start(8128)).rejects.toThrow('ngrok opened an endpoint without a URL');
    expect(fake.closedCount()).toBe(1);
  });

  it('gives up on an agent that does not open its endpoint in time', async () => {
    const fake = fakeNgrok({ never: true });
    const { tunnel } = await setUp(fake);
    await expect(tunnel.start(8129)).rejects.toThrow('ngrok did not open its endpoint in time');
  });

  it('refuses an authtoken with spaces without echoing it', async () => {
    await expect(saveNgrokAuthtoken(new MemorySecretStore(), 'two words')).rejects.toThrow('the ngrok authtoken must be one word without spaces');
  });

  it('loads the installed @ngrok/ngrok package lazily (no connection is made)', async () => {
    const module = await loadNgrokModule();
    expect(typeof module.forward).toBe('function');
  });
});
