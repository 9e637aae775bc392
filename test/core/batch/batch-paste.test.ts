// The order form's pasted accounts, split by the batch reader's CSV parser (core/batch/batch-paste.ts):
// one line per unit, blank lines skipped, a tab, comma or semicolon (ASCII or full-width) between
// values, and quoted values keep their commas and newlines; with one field a line is its value whole.
import { describe, expect, it } from 'vitest';
import { parsePastedRows } from '../../../src/core/batch/batch-paste';

describe('pasted accounts', () => {
  it('reads one line per unit with the CSV rules', () => {
    expect(parsePastedRows('13800000000\n\n 13900000000 \r\n', 1)).toEqual([['13800000000'], ['13900000000']]);
    expect(parsePastedRows('a,b\n"c"\n', 1)).toEqual([['a,b'], ['c']]);
    expect(parsePastedRows('u1\ts1\nu2, s2\nu3\n"x, y"，z\n"multi\nline"；w\n', 2)).toEqual([['u1', 's1'], ['u2', 's2'], ['u3'], ['x, y', 'z'], ['multi\nline', 'w']]);
  });
});
