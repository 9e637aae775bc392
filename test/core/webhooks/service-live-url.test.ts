// The live callback URL record that another process (cli `order create`) reads: used only while the
// runner's heartbeat is fresh, withdrawn only by the runner that wrote it; and the callback token
// kept across restarts. Against a migrated database on disk.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearLiveCallbackUrl,
  LIVE_URL_FRESH_MS,
  readCallbackToken,
  readLiveCallbackRecord,
  readLiveCallbackUrl,
  writeCallbackToken,
  writeLiveCallbackUrl,
} from '../../../src/core/webhooks/webhook-settings';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

let temp: TempDatabase;
beforeEach(() => {
  temp = createMigratedDatabase();
});
afterEach(() => temp.dispose());

const URL_A = 'https://a.example.com/hooks/tokenA';
const URL_B = 'https://b.example.com/hooks/tokenB';

describe('live callback URL record', () => {
  it('is used while the heartbeat is fresh and ignored once the runner stopped beating', () => {
    const t0 = 1_790_000_000_000;
    expect(readLiveCallbackUrl(temp.db, t0)).toBeNull();
    writeLiveCallbackUrl(temp.db, URL_A, t0, 4242);
    expect(readLiveCallbackRecord(temp.db)).toEqual({ url: URL_A, heartbeatAtMs: t0, pid: 4242 });
    expect(readLiveCallbackUrl(temp.db, t0 + 1_000)).toBe(URL_A);
    expect(readLiveCallbackUrl(temp.db, t0 + LIVE_URL_FRESH_MS)).toBe(URL_A);
    expect(readLiveCallbackUrl(temp.db, t0 + LIVE_URL_FRESH_MS + 1)).toBeNull();
    // A heartbeat far in the future is not trusted either (a clock that jumped).
    expect(readLiveCallbackUrl(temp.db, t0 - LIVE_URL_FRESH_MS - 1)).toBeNull();
    writeLiveCallbackUrl(temp.db, URL_A, t0 + LIVE_URL_FRESH_MS, 4242);
    expect(readLiveCallbackUrl(temp.db, t0 + LIVE_URL_FRESH_MS + 1)).toBe(URL_A);
  });

  it('is withdrawn only by the runner whose URL it is', () => {
    writeLiveCallbackUrl(temp.db, URL_A, 1000, 1);
    writeLiveCallbackUrl(temp.db, URL_B, 2000, 2);
    clearLiveCallbackUrl(temp.db, URL_A);
    expect(readLiveCallbackRecord(temp.db)?.url).toBe(URL_B);
    clearLiveCallbackUrl(temp.db, URL_B);
    expect(readLiveCallbackRecord(temp.db)).toBeNull();
  });

  it('keeps the callback token across restarts', () => {
    expect(readCallbackToken(temp.db)).toBeNull();
    writeCallbackToken(temp.db, 'x'.repeat(43), 1000);
    expect(readCallbackToken(temp.db)).toBe('x'.repeat(43));
  });
});
