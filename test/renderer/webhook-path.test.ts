// The Settings screen's webhook choice and the stored tunnel text map both ways, and text it does
// not know is shown as polling only (main refuses such text before storing it anyway).
import { describe, expect, it } from 'vitest';
import { choiceFromTunnel, tunnelFromChoice, WEBHOOK_PATHS } from '../../src/renderer/src/lib/webhook-path';

describe('webhook path choice', () => {
  it('round-trips every provider and a public address', () => {
    for (const path of WEBHOOK_PATHS.filter((p) => p !== 'url')) expect(choiceFromTunnel(tunnelFromChoice({ path, publicUrl: '' }))).toEqual({ path, publicUrl: '' });
    expect(tunnelFromChoice({ path: 'url', publicUrl: ' https://hooks.example.com/procure ' })).toBe('url:https://hooks.example.com/procure');
    expect(choiceFromTunnel('url:https://hooks.example.com/procure')).toEqual({ path: 'url', publicUrl: 'https://hooks.example.com/procure' });
  });

  it('shows unknown or empty text as polling only', () => {
    expect(choiceFromTunnel('')).toEqual({ path: 'off', publicUrl: '' });
    expect(choiceFromTunnel('frp')).toEqual({ path: 'off', publicUrl: '' });
    expect(choiceFromTunnel('url')).toEqual({ path: 'off', publicUrl: '' });
    // No longer offered: core turns a stored localtunnel choice into polling (with a notice).
    expect(choiceFromTunnel('localtunnel')).toEqual({ path: 'off', publicUrl: '' });
  });
});
