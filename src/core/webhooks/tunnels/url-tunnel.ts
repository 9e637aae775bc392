// A public URL the user runs themselves (their reverse proxy, frp, a VPS) that forwards to the
// receiver's local port. Nothing is started: whether it really reaches us shows up as deliveries
// arriving or not, which the polling fallback covers.
import type { Logger } from '../../logging/logger';
import type { Tunnel, TunnelStatus } from './tunnel';
import { checkPublicBaseUrl } from './tunnel-spec';
import { TunnelState, checkLocalPort } from './tunnel-state';

export function createUrlTunnel(url: string, deps: { logger: Logger }): Tunnel {
  // Checked when created, so that a bad --tunnel value fails before anything starts.
  const publicUrl = checkPublicBaseUrl(url);
  const state = new TunnelState('url', deps.logger);
  return {
    kind: 'url',
    start(localPort: number): Promise<string> {
      return new Promise((resolve) => {
        checkLocalPort(localPort);
        state.update({ up: true, publicUrl, lastError: null });
        resolve(publicUrl);
      });
    },
    stop(): Promise<void> {
      state.update({ up: false, publicUrl: null });
      return Promise.resolve();
    },
    status: (): TunnelStatus => state.snapshot(),
    onChange: (listener) => state.subscribe(listener),
  };
}
