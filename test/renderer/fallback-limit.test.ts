// The fallback rule's price limit as typed: exact fen or a named refusal, never a guess; and the
// preference order's moves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialPreference, LIMIT_MAX_FEN, movePreference, parseLimitText } from '../../src/renderer/src/lib/fallback-limit';
import { fallbackRuleSchema } from '../../src/shared/ipc/views/compare';
import { fenToYuanText } from '../../src/shared/money';

describe('parseLimitText', () => {
  it('reads yuan to exact fen, as people write amounts', () => {
    expect(parseLimitText('12.5')).toEqual({ ok: true, fen: 1250 });
    expect(parseLimitText(' 12.50 ')).toEqual({ ok: true, fen: 1250 });
    expect(parseLimitText('0.01')).toEqual({ ok: true, fen: 1 });
    expect(parseLimitText('¥1,234.56')).toEqual({ ok: true, fen: 123456 });
    expect(parseLimitText('１２')).toEqual({ ok: true, fen: 1200 });
    expect(parseLimitText('1000000')).toEqual({ ok: true, fen: LIMIT_MAX_FEN });
  });

  it('names what it cannot mean and keeps nothing', () => {
    expect(parseLimitText('')).toEqual({ ok: false, error: 'empty' });
    expect(parseLimitText('   ')).toEqual({ ok: false, error: 'empty' });
    expect(parseLimitText('0')).toEqual({ ok: false, error: 'zero' });
    expect(parseLimitText('0.00')).toEqual({ ok: false, error: 'zero' });
    expect(parseLimitText('-5')).toEqual({ ok: false, error: 'negative' });
    expect(parseLimitText('-0.5x')).toEqual({ ok: false, error: 'negative' });
    expect(parseLimitText('12.345')).toEqual({ ok: false, error: 'notAmount' });
    expect(parseLimitText('twelve')).toEqual({ ok: false, error: 'notAmount' });
    expect(parseLimitText('12 yuan; DROP TABLE links')).toEqual({ ok: false, error: 'notAmount' });
    expect(parseLimitText('1e5')).toEqual({ ok: false, error: 'notAmount' });
    expect(parseLimitText('1000000.01')).toEqual({ ok: false, error: 'tooLarge' });
    expect(parseLimitText('99999999999999999999')).toEqual({ ok: false, error: 'notAmount' });
    expect(parseLimitText('9999999999999')).toEqual({ ok: false, error: 'tooLarge' });
  });

  it('accepts exactly the limits the contract accepts, and reads back what it is shown', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: LIMIT_MAX_FEN + 1000 }), (fen) => {
        const parsed = parseLimitText(fenToYuanText(fen));
        const contract = fallbackRuleSchema.safeParse({ maxUnitPriceFen: fen, preference: ['p1'] }).success;
        expect(parsed.ok).toBe(contract);
        if (parsed.ok) expect(parsed.fen).toBe(fen);
      }),
    );
  });

  it('never throws on pasted junk', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseLimitText(text)));
  });
});

describe('the preference order', () => {
  it('moves one merchant one place and ignores moves past either end', () => {
    expect(movePreference(['p1', 'p2', 'p3'], 2, -1)).toEqual(['p1', 'p3', 'p2']);
    expect(movePreference(['p1', 'p2', 'p3'], 0, 1)).toEqual(['p2', 'p1', 'p3']);
    expect(movePreference(['p1', 'p2'], 0, -1)).toEqual(['p1', 'p2']);
    expect(movePreference(['p1', 'p2'], 1, 1)).toEqual(['p1', 'p2']);
  });

  it("starts from the rule's own order, then the members it does not name, each once", () => {
    expect(initialPreference(null, ['p1', 'p2', 'p1'])).toEqual(['p1', 'p2']);
    expect(initialPreference(['p3', 'p1'], ['p1', 'p2', 'p3'])).toEqual(['p3', 'p1', 'p2']);
  });
});
