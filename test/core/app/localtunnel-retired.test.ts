// localtunnel is no longer offered: a choice an earlier build stored becomes polling at start-up,
// with a notice in the settings until the buyer chooses again; the choice cannot be stored anew.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppKit, expectRefused, type AppKit } from './app-kit';

let kit: AppKit;

beforeAll(async () => {
  kit = await createAppKit(1);
}, 60_000);

afterAll(async () => {
  await kit?.close();
});

describe('a stored localtunnel choice', () => {
  it('turns into polling with a notice, which a new choice clears', async () => {
    // What an earlier build wrote (app-settings.ts keeps the preferences as one JSON row).
    kit.core.db
      .prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)')
      .run('app.preferences', JSON.stringify({ language: 'zh-CN', theme: 'dark', webhookTunnel: 'localtunnel', webhookPort: 8787 }), 1_790_000_000);

    await kit.app.start();
    expect(await kit.ok('settings.get')).toEqual({ language: 'zh-CN', theme: 'dark', webhookTunnel: 'off', webhookPort: 8787, webhookNotice: 'localtunnelRetired', lowBalanceFen: 100_00, closeToTray: true, startAtLogin: false });
    expect(await kit.ok('events.health')).toMatchObject({ receiverUp: false, tunnelKind: null, webhooksLive: false });
    expect(kit.logLines.some((line) => line.includes('localtunnel webhook choice is no longer offered'))).toBe(true);

    // Stored as polling: a restart finds nothing more to retire and keeps the notice.
    await kit.app.stop();
    await kit.app.start();
    expect(await kit.ok('settings.get')).toMatchObject({ webhookTunnel: 'off', webhookNotice: 'localtunnelRetired' });

    const refused = expectRefused(await kit.call('settings.set', { webhookTunnel: 'localtunnel' }), 'INVALID_INPUT');
    expect(refused.message).toContain('localtunnel is no longer offered');
    expect(await kit.ok('settings.get')).toMatchObject({ webhookTunnel: 'off', webhookNotice: 'localtunnelRetired' });

    expect(await kit.ok('settings.set', { webhookTunnel: 'off' })).toMatchObject({ webhookTunnel: 'off', webhookNotice: 'none' });
    await kit.app.stop();
  }, 60_000);
});
