// What `batch` says about an earlier batch: when it was placed, as every time the CLI writes (contract
// §16.5: local YYYY-MM-DD HH:mm:ss) with the offset, and ISO 8601 in --json.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { duplicatesJson, printDuplicates } from '../../src/cli/commands/batch-duplicates-output';
import { runtimeTimeZone } from '../../src/shared/date-time';

const PLACED_AT = Math.floor(Date.UTC(2026, 10, 27, 18, 21, 23) / 1000);
const duplicates = { rows: [], placedBefore: [{ batchId: 'b_1', fileName: 'phones.csv', productRef: 1001, placedAt: PLACED_AT, match: 'sameFile' as const }] };

const zoneBefore = process.env['TZ'];
afterEach(() => {
  vi.restoreAllMocks();
  if (zoneBefore === undefined) delete process.env['TZ'];
  else process.env['TZ'] = zoneBefore;
});

describe('batch duplicates in the CLI', () => {
  it('names the earlier batch with its local time and offset', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    // The CLI's zone is the machine's (Node follows a TZ set while it runs).
    process.env['TZ'] = 'Asia/Shanghai';
    expect(runtimeTimeZone()).toBe('Asia/Shanghai');
    printDuplicates(duplicates);
    expect(written.join('')).toContain('was already placed on 2026-11-28 02:21:23 (UTC+08:00) as batch b_1 (phones.csv)');
    process.env['TZ'] = 'America/New_York';
    printDuplicates(duplicates);
    expect(written.join('')).toContain('was already placed on 2026-11-27 13:21:23 (UTC-05:00) as batch b_1 (phones.csv)');
  });

  it('keeps ISO 8601 in UTC for --json', () => {
    expect(duplicatesJson(duplicates)).toMatchObject({ placedBefore: [{ placedAt: '2026-11-27T18:21:23.000Z' }] });
  });
});
