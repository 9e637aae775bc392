// The shared worker loop (src/core/platform/worker-loop.ts): sleeps between passes, a poke ends
// the sleep, a poke during a pass skips the next sleep (queued work never waits an interval), a
// failing pass is logged and the loop goes on, stop() aborts the pass's signal and ends the loop.
import { describe, expect, it } from 'vitest';
import { createWorkerLoop } from '../../../src/core/platform/worker-loop';
import { systemClock } from '../../../src/core/platform/clock';
import type { Logger } from '../../../src/core/logging/logger';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function recordingLogger(lines: string[]): Logger {
  const log = (message: string): void => void lines.push(message);
  return { debug: log, info: log, warn: log, error: log };
}

describe('worker loop', () => {
  it('runs a pass, sleeps, and runs again at once when poked', async () => {
    let passes = 0;
    const loop = createWorkerLoop({ clock: systemClock, logger: recordingLogger([]), name: 'test', pass: () => Promise.resolve(passes++), waitMs: () => 60_000 });
    loop.start();
    await sleep(50);
    expect(passes).toBe(1);
    loop.poke();
    await sleep(50);
    expect(passes).toBe(2);
    await loop.stop();
  });

  it('does not sleep after a pass during which it was poked', async () => {
    let passes = 0;
    let loop: ReturnType<typeof createWorkerLoop> | null = null;
    loop = createWorkerLoop({
      clock: systemClock,
      logger: recordingLogger([]),
      name: 'test',
      pass: async () => {
        passes += 1;
        // Work arrives while the first pass runs (a poke from elsewhere).
        if (passes === 1) loop?.poke();
        await sleep(5);
      },
      waitMs: () => 60_000,
    });
    loop.start();
    await sleep(100);
    expect(passes).toBe(2);
    await loop.stop();
  });

  it('logs a failing pass and goes on; stop aborts the running pass and ends the loop', async () => {
    const lines: string[] = [];
    let passes = 0;
    let seen: AbortSignal | null = null;
    const loop = createWorkerLoop({
      clock: systemClock,
      logger: recordingLogger(lines),
      name: 'flaky',
      pass: async (signal) => {
        passes += 1;
        seen = signal;
        if (passes === 1) throw new Error('boom');
        await sleep(5);
      },
      waitMs: () => 10,
    });
    loop.start();
    await sleep(100);
    expect(lines).toContain('flaky pass failed');
    expect(passes).toBeGreaterThan(2);
    expect(loop.signal()).not.toBeNull();
    await loop.stop();
    expect((seen as AbortSignal | null)?.aborted).toBe(true);
    expect(loop.signal()).toBeNull();
    const after = passes;
    await sleep(50);
    expect(passes).toBe(after);
  });
});
