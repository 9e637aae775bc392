// The warning that card codes will not open after a restart (memory-only secrets) concerns orders
// that deliver card codes: a card order, or one whose type is not known; never a top-up.
import { describe, expect, it } from 'vitest';
import { deliversCardCodes } from '../../src/renderer/src/lib/card-code-warning';

describe('card-code warnings', () => {
  it('are for card orders and unknown types, not for top-ups', () => {
    expect(deliversCardCodes('card')).toBe(true);
    expect(deliversCardCodes('topup')).toBe(false);
    expect(deliversCardCodes('voucher')).toBe(true);
    expect(deliversCardCodes(null)).toBe(true);
  });
});
