// ngrok through the `@ngrok/ngrok` package (a native agent in-process: no ngrok executable). The
// package is loaded only when this tunnel starts, so the app runs where its native binary is
// missing; the loader is injectable so tests exercise this adapter without the internet.
//
// The user's authtoken lives in the secret store like the API key: read at start, handed to the
// agent, registered with the logger so no line can show it, and never written anywhere else.
import type { Logger, SecretAwareLogger } from '../../logging/logger';
import type { Clock } from '../../platform/clock';
import type { SecretStore } from '../../secrets/secret-store';
import type { Tunnel, TunnelStatus } from './tunnel';
import { TunnelError } from './tunnel';
import { TunnelState, checkLocalPort, errorMessage } from './tunnel-state';
import { withTimeout } from './with-timeout';

export const NGROK_AUTHTOKEN_SECRET = 'tunnel.ngrok-authtoken';

/** The part of `@ngrok/ngrok` used here (its `forward` and `Listener`). */
export interface NgrokListener {
  url(): string | null;
  close(): Promise<void>;
}

export interface NgrokForwardConfig {
  addr: string;
  authtoken: string;
  proto: 'http';
  /** 'closed' when the agent lost its connection to ngrok, 'connected' when it is back. */
  onStatusChange: (status: string) => void;
}

export interface NgrokModule {
  forward(config: NgrokForwardConfig): Promise<NgrokListener>;
}

export type NgrokLoader = () => Promise<NgrokModule>;

export const loadNgrokModule: NgrokLoader = async () => {
  const module: NgrokModule = await import('@ngrok/ngrok');
  return module;
};

export interface NgrokTunnelDeps {
  logger: Logger | SecretAwareLogger;
  secrets?: SecretStore;
  clock: Clock;
  loadNgrok?: NgrokLoader;
  /** How long the agent may take to open the endpoint. Default 30 s. */
  startTimeoutMs?: number;
}

/** Stores the user's ngrok authtoken where the tunnel reads it. */
export async function saveNgrokAuthtoken(secrets: SecretStore, authtoken: string): Promise<void> {
  const value = authtoken.trim();
  // Never echoed: only what is wrong with it.
  if (value === '' || /\s/.test(value)) throw new TunnelError('the ngrok authtoken must be one word without spaces');
  await secrets.set(NGROK_AUTHTOKEN_SECRET, value);
}

function canRegisterSecrets(logger: Logger | SecretAwareLogger): logger is SecretAwareLogger {
  return 'registerSecret' in logger && typeof logger.registerSecret === 'function';
}

function publicOrigin(raw: string | null): string {
  if (raw === null) throw new TunnelError('ngrok opened an endpoint without a URL');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TunnelError('ngrok returned an endpoint URL that is not a URL');
  }
  if (url.protocol !== 'https:') throw new TunnelError('ngrok returned an endpoint that is not https://');
  return url.origin;
}

export function createNgrokTunnel(deps: NgrokTunnelDeps): Tunnel {
  const state = new TunnelState('ngrok', deps.logger);
  const loadNgrok = deps.loadNgrok ?? loadNgrokModule;
  let listener: NgrokListener | null = null;
  let forgetSecret: (() => void) | null = null;
  let token: string | null = null;
  let generation = 0;

  // Messages from the agent go to the health record and logs; the token is cut out first.
  const clean = (text: string): string => {
    const withoutToken = token === null || token === '' ? text : text.split(token).join('***');
    return canRegisterSecrets(deps.logger) ? deps.logger.redact(withoutToken) : withoutToken;
  };

  const release = (): void => {
    forgetSecret?.();
    forgetSecret = null;
    token = null;
  };

  return {
    kind: 'ngrok',
    async start(localPort: number): Promise<string> {
      checkLocalPort(localPort);
      if (listener !== null) throw new TunnelError('the ngrok tunnel is already started');
      const mine = ++generation;
      try {
        const authtoken = deps.secrets === undefined ? null : await deps.secrets.get(NGROK_AUTHTOKEN_SECRET);
        if (authtoken === null || authtoken.trim() === '') {
          throw new TunnelError(`no ngrok authtoken is stored (secret "${NGROK_AUTHTOKEN_SECRET}"); save one first`);
        }
        token = authtoken.trim();
        if (canRegisterSecrets(deps.logger)) forgetSecret = deps.logger.registerSecret(token);
        let module: NgrokModule;
        try {
          module = await loadNgrok();
        } catch (error) {
          throw new TunnelError(`ngrok support is not available on this system: ${errorMessage(error)}`);
        }
        const opened = await withTimeout(
          module.forward({
            // 127.0.0.1 rather than localhost, which may resolve to ::1 where the receiver does not listen.
            addr: `127.0.0.1:${localPort}`,
            authtoken: token,
            proto: 'http',
            onStatusChange: (status) => {
              if (mine !== generation) return;
              if (status === 'closed') {
                deps.logger.warn('ngrok connection lost; the agent reconnects by itself', { kind: 'ngrok' });
                state.update({ up: false, lastError: 'ngrok connection lost' });
              } else if (status === 'connected' && listener !== null) {
                const current = state.snapshot();
                state.update({ up: true, lastError: null, restarts: current.up ? current.restarts : current.restarts + 1 });
              }
            },
          }),
          deps.startTimeoutMs ?? 30_000,
          deps.clock,
          'ngrok did not open its endpoint in time',
          (late) => void late.close().catch(() => undefined),
        );
        if (mine !== generation) {
          // stop() came while it was opening.
          await opened.close().catch(() => undefined);
          throw new TunnelError('the ngrok tunnel was stopped while starting');
        }
        let publicUrl: string;
        try {
          publicUrl = publicOrigin(opened.url());
        } catch (error) {
          await opened.close().catch(() => undefined);
          throw error;
        }
        listener = opened;
        state.update({ up: true, publicUrl, lastError: null });
        deps.logger.info('ngrok tunnel up', { kind: 'ngrok', publicUrl });
        return publicUrl;
      } catch (error) {
        const message = clean(errorMessage(error));
        if (mine === generation) {
          release();
          state.update({ up: false, publicUrl: null, lastError: message });
        }
        throw error instanceof TunnelError ? new TunnelError(message) : new TunnelError(`ngrok failed to start: ${message}`);
      }
    },
    async stop(): Promise<void> {
      generation++;
      const closing = listener;
      listener = null;
      try {
        await closing?.close();
      } catch (error) {
        deps.logger.warn('ngrok listener did not close cleanly', { kind: 'ngrok', error: clean(errorMessage(error)) });
      } finally {
        release();
        state.update({ up: false, publicUrl: null });
      }
    },
    status: (): TunnelStatus => state.snapshot(),
    onChange: (listenerFn) => state.subscribe(listenerFn),
  };
}
