// Builds the tunnel the user chose. Providers that need a package or a program load or look for it
// only in start(), so choosing one that is missing fails there with a message, not at startup.
import type { Logger, SecretAwareLogger } from '../../logging/logger';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import type { SecretStore } from '../../secrets/secret-store';
import type { CloudflaredTimings, SpawnProcess } from './cloudflared-tunnel';
import { createCloudflaredTunnel } from './cloudflared-tunnel';
import { createLoopbackTunnel } from './loopback-tunnel';
import type { NgrokLoader } from './ngrok-tunnel';
import { createNgrokTunnel } from './ngrok-tunnel';
import type { Tunnel, TunnelSpec } from './tunnel';
import { createUrlTunnel } from './url-tunnel';

export interface TunnelDeps {
  logger: Logger | SecretAwareLogger;
  /** Holds the ngrok authtoken; required for ngrok only. */
  secrets?: SecretStore;
  clock?: Clock;
  /** Environment for finding and running cloudflared. Default process.env. */
  env?: NodeJS.ProcessEnv;
  // Seams for tests: the provider packages and process spawning.
  loadNgrok?: NgrokLoader;
  spawnProcess?: SpawnProcess;
  cloudflaredTimings?: Partial<CloudflaredTimings>;
  ngrokStartTimeoutMs?: number;
}

export function createTunnel(spec: TunnelSpec, deps: TunnelDeps): Tunnel {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger;
  switch (spec.kind) {
    case 'loopback':
      return createLoopbackTunnel({ logger });
    case 'url':
      return createUrlTunnel(spec.url, { logger });
    case 'ngrok':
      return createNgrokTunnel({ logger, clock, secrets: deps.secrets, loadNgrok: deps.loadNgrok, startTimeoutMs: deps.ngrokStartTimeoutMs });
    case 'cloudflared':
      return createCloudflaredTunnel({
        logger,
        clock,
        executablePath: spec.executablePath,
        env: deps.env,
        spawnProcess: deps.spawnProcess,
        timings: deps.cloudflaredTimings,
      });
  }
}
