// The settings' tunnel text (the CLI's --tunnel: off | loopback | ngrok | cloudflared |
// url:https://…) as the choice the Settings screen shows, and back. Main checks the text again.
export const WEBHOOK_PATHS = ['off', 'ngrok', 'cloudflared', 'url', 'loopback'] as const;
export type WebhookPath = (typeof WEBHOOK_PATHS)[number];

export interface WebhookChoice {
  readonly path: WebhookPath;
  /** The buyer's own public https address, for path 'url'. */
  readonly publicUrl: string;
}

export function choiceFromTunnel(tunnel: string): WebhookChoice {
  const text = tunnel.trim();
  if (text.startsWith('url:')) return { path: 'url', publicUrl: text.slice('url:'.length) };
  const known = WEBHOOK_PATHS.find((path) => path === text && path !== 'url');
  return { path: known ?? 'off', publicUrl: '' };
}

export function tunnelFromChoice(choice: WebhookChoice): string {
  return choice.path === 'url' ? `url:${choice.publicUrl.trim()}` : choice.path;
}
