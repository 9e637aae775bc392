// The --tunnel text form, the user's own public URL (HTTPS only) and the loopback tunnel.
import { describe, expect, it } from 'vitest';
import { createTunnel } from '../../../../src/core/webhooks/tunnels/create-tunnel';
import { checkPublicBaseUrl, parseTunnelSpec } from '../../../../src/core/webhooks/tunnels/tunnel-spec';
import { recordingLogger, statusLog } from './fixtures/tunnel-test-kit';

describe('parseTunnelSpec', () => {
  it('reads every provider', () => {
    expect(parseTunnelSpec('loopback')).toEqual({ kind: 'loopback' });
    expect(parseTunnelSpec('ngrok')).toEqual({ kind: 'ngrok' });
    expect(parseTunnelSpec(' cloudflared ')).toEqual({ kind: 'cloudflared' });
    expect(parseTunnelSpec('url:https://hooks.example.com')).toEqual({ kind: 'url', url: 'https://hooks.example.com' });
    expect(parseTunnelSpec('url:https://Example.com:8443/procure/')).toEqual({ kind: 'url', url: 'https://example.com:8443/procure' });
  });

  it('refuses unknown providers and bad URLs', () => {
    expect(() => parseTunnelSpec('frp')).toThrow('unknown tunnel "frp": expected loopback, ngrok, cloudflared or url:https://…');
    expect(() => parseTunnelSpec('localtunnel')).toThrow('localtunnel is no longer offered (its client is unmaintained): expected loopback, ngrok, cloudflared or url:https://…');
    expect(() => parseTunnelSpec('')).toThrow(/unknown tunnel/);
    expect(() => parseTunnelSpec('url:http://hooks.example.com')).toThrow('the public URL must use https://');
    expect(() => parseTunnelSpec('url:hooks.example.com')).toThrow('the public URL is not a URL');
    expect(() => parseTunnelSpec('url:')).toThrow('the public URL is not a URL');
  });
});

describe('checkPublicBaseUrl', () => {
  it('refuses credentials, query and fragment', () => {
    expect(() => checkPublicBaseUrl('https://user:pass@example.com')).toThrow('must not carry a user name or password');
    expect(() => checkPublicBaseUrl('https://example.com/?a=1')).toThrow('must not have a query or fragment');
    expect(() => checkPublicBaseUrl('https://example.com/#x')).toThrow('must not have a query or fragment');
    expect(() => checkPublicBaseUrl('ftp://example.com')).toThrow('must use https://');
  });
});

describe('url and loopback tunnels', () => {
  it('url: starts nothing and answers the user URL; refuses http when created', async () => {
    const { logger } = recordingLogger();
    const tunnel = createTunnel({ kind: 'url', url: 'https://hooks.example.com/' }, { logger });
    const { changes, listener } = statusLog();
    tunnel.onChange(listener);
    await expect(tunnel.start(9000)).resolves.toBe('https://hooks.example.com');
    expect(tunnel.status()).toEqual({ kind: 'url', up: true, publicUrl: 'https://hooks.example.com', lastError: null, restarts: 0 });
    await tunnel.stop();
    expect(changes.map((status) => status.up)).toEqual([true, false]);
    expect(() => createTunnel({ kind: 'url', url: 'http://hooks.example.com' }, { logger })).toThrow('the public URL must use https://');
  });

  it('loopback: the receiver local URL', async () => {
    const { logger } = recordingLogger();
    const tunnel = createTunnel({ kind: 'loopback' }, { logger });
    await expect(tunnel.start(43210)).resolves.toBe('http://127.0.0.1:43210');
    expect(tunnel.status()).toMatchObject({ kind: 'loopback', up: true, publicUrl: 'http://127.0.0.1:43210' });
    await expect(tunnel.start(0)).rejects.toThrow(RangeError);
    await tunnel.stop();
    expect(tunnel.status()).toMatchObject({ up: false, publicUrl: null });
  });
});
