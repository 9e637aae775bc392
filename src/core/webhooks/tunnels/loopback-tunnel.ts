// No tunnel: the receiver's own loopback URL. Only something on this machine can reach it, which
// is what the sandbox needs (its default --callback-policy loopback delivers to such URLs).
import type { Logger } from '../../logging/logger';
import type { Tunnel, TunnelStatus } from './tunnel';
import { TunnelState, checkLocalPort } from './tunnel-state';

export function createLoopbackTunnel(deps: { logger: Logger }): Tunnel {
  const state = new TunnelState('loopback', deps.logger);
  return {
    kind: 'loopback',
    start(localPort: number): Promise<string> {
      return new Promise((resolve) => {
        checkLocalPort(localPort);
        const publicUrl = `http://127.0.0.1:${localPort}`;
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
