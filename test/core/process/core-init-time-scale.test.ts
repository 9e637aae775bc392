// CoreInit.timeScale: a core process may run on a faster clock, like a sandbox's --time-scale (the
// host-responsiveness bench syncs against a sandbox at 30×). The init comes from another process, so
// the schema refuses a scale that would stop or reverse core's clock.
import { describe, expect, it } from 'vitest';
import { coreInitSchema } from '../../../src/core/process/core-process-protocol';

const init = { dataDir: '/tmp/x', logLevel: 'info', secretStoreKind: 'memory', capabilities: { writeClipboard: false, chooseExportPath: true, usePassphraseFile: false } } as const;

describe('CoreInit.timeScale', () => {
  it('is optional and, when given, a positive factor', () => {
    expect(coreInitSchema.parse(init).timeScale).toBeUndefined();
    expect(coreInitSchema.parse({ ...init, timeScale: 30 }).timeScale).toBe(30);
    expect(coreInitSchema.parse({ ...init, timeScale: 0.5 }).timeScale).toBe(0.5);
  });

  it('refuses a scale that stops, reverses or runs away with the clock', () => {
    for (const timeScale of [0, -1, Number.POSITIVE_INFINITY, Number.NaN, 10_001, '10']) {
      expect(coreInitSchema.safeParse({ ...init, timeScale }).success, String(timeScale)).toBe(false);
    }
  });
});
