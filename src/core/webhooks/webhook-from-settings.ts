// The app hosts' way to webhooks: the tunnel and port the user chose in the settings (the same text
// as the CLI's --tunnel), or none ('off': polling only). The CLI builds its webhook service from its
// flags instead; both end in the same createWebhookService and createTunnel.
import { createWebhookService, type WebhookFactory } from './webhook-service';
import { createTunnel } from './tunnels/create-tunnel';
import type { WebhookListener } from './webhook-listener';
import { parseTunnelSpec } from './tunnels/tunnel-spec';

export interface WebhookChoice {
  /** 'off' (or empty) for polling only; otherwise loopback, ngrok, cloudflared or url:https://… */
  readonly webhookTunnel: string;
  /** The receiver's port on 127.0.0.1; 0 = a free one. */
  readonly webhookPort: number;
}

/**
 * The factory for core's attachWebhooks, or null when webhooks are off. Throws TunnelSpecError for a
 * choice that cannot work. With `listener` (one for every merchant profile, contract §15.3) the
 * receiver mounts its token on it and the choice's port is not used (the listener's is).
 */
export function webhookFactoryFromSettings(choice: WebhookChoice, listener?: WebhookListener): WebhookFactory | null {
  const text = choice.webhookTunnel.trim();
  if (text === '' || text === 'off') return null;
  const spec = parseTunnelSpec(text);
  return (parts) =>
    createWebhookService({
      ...parts,
      port: choice.webhookPort,
      ...(listener === undefined ? {} : { listener }),
      tunnel: createTunnel(spec, { logger: parts.logger, secrets: parts.secrets, clock: parts.clock }),
    });
}
