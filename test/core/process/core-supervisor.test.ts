// The core in its own process (src/core/process): a real child process started by the Node launcher,
// spoken to over its port by the supervisor the hosts use. It answers the contract, reads the host's
// secret store only over the port, and when it is killed it comes back by itself: the host sees
// "reconnecting" then "ready", and calls made meanwhile are answered by the new process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore, RedactingLogger } from '../../../src/core';
import { createCoreSupervisor, type SupervisedCore } from '../../../src/core/process/core-supervisor';
import { nodeCoreLauncher } from '../../../src/core/process/node-core-launcher';
import type { EventName } from '../../../src/shared/ipc/contract';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startSupervised(secrets = new MemorySecretStore()): { core: SupervisedCore; events: { name: EventName; payload: unknown }[]; lines: string[]; secretReads: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'core-process-'));
  const events: { name: EventName; payload: unknown }[] = [];
  const lines: string[] = [];
  const secretReads: string[] = [];
  const watched = {
    get kind() {
      return secrets.kind;
    },
    get: (name: string) => {
      secretReads.push(name);
      return secrets.get(name);
    },
    set: (name: string, value: string) => secrets.set(name, value),
    delete: (name: string) => secrets.delete(name),
  };
  const core = createCoreSupervisor({
    launch: nodeCoreLauncher({ stderr: 'ignore' }),
    init: { dataDir, logLevel: 'info', changeScanIntervalMs: 200 },
    secrets: watched,
    host: { startDemoMerchant: () => Promise.reject(new Error('no demo here')) },
    logLine: (line) => lines.push(line),
    logger: new RedactingLogger({ sink: (line) => lines.push(line) }),
    restartDelaysMs: [50],
  });
  core.onEvent((name, payload) => events.push({ name, payload }));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => core.stop());
  return { core, events, lines, secretReads };
}

describe('the core process', () => {
  it('answers the contract from its own process and pushes its events', async () => {
    const { core, events } = startSupervised();
    await core.start();
    expect(core.state()).toBe('ready');
    expect(core.pid()).toBeTypeOf('number');
    expect(core.pid()).not.toBe(process.pid);
    const status = await core.handle('connection.status', undefined);
    expect(status).toMatchObject({ ok: true, value: { connected: false, secretStore: 'memory' } });
    // The contract's own checks run in the core process too.
    expect(await core.handle('no.such.channel', {})).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(events.some((e) => e.name === 'connection.changed')).toBe(true);
  });

  it('comes back after SIGKILL: reconnecting, then ready, and a call made meanwhile is answered', async () => {
    const { core, events } = startSupervised();
    await core.start();
    const firstPid = core.pid();
    expect(firstPid).toBeTypeOf('number');
    process.kill(firstPid ?? -1, 'SIGKILL');
    await expect.poll(() => core.state()).toBe('reconnecting');
    const during = core.handle('connection.status', undefined);
    await core.whenReady();
    expect(await during).toMatchObject({ ok: true, value: { connected: false } });
    expect(core.pid()).not.toBe(firstPid);
    const states = events.filter((e) => e.name === 'core.state').map((e) => e.payload);
    expect(states).toEqual([{ state: 'ready' }, { state: 'reconnecting' }, { state: 'ready' }]);
  });

  it('stops cleanly: the process closes core and exits, and no restart follows', async () => {
    const { core } = startSupervised();
    await core.start();
    const pid = core.pid() ?? -1;
    await core.stop();
    expect(core.state()).toBe('stopped');
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await Promise.race([core.handle('connection.status', undefined), new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))])).toBe('waiting');
  });
});
