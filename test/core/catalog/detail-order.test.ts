// The order of a sync's detail requests as pure functions (issue 15): watched, then ordered, then the
// category on screen, then the rest, stable within a rank; the queue follows a focus that changes
// between picks, yields every product still needing a detail exactly once and never one whose detail
// was stored meanwhile.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDetailQueue, DETAIL_RANK, detailRank, orderDetails, type DetailCandidate } from '../../../src/core/catalog/detail-order';

const candidateArb = fc.record({ catalogRef: fc.integer({ min: 1, max: 4 }), watched: fc.boolean(), ordered: fc.boolean() });
/** Distinct productRefs in ascending order, as the repository lists them. */
const candidatesArb = fc.array(candidateArb, { maxLength: 40 }).map((list) => list.map((c, i): DetailCandidate => ({ ...c, productRef: 1001 + i })));
const focusArb = fc.option(fc.integer({ min: 1, max: 5 }), { nil: null });

describe('detail order', () => {
  it('ranks watched, then ordered, then the focused category, then the rest', () => {
    const c = (patch: Partial<DetailCandidate>): DetailCandidate => ({ productRef: 1, catalogRef: 7, watched: false, ordered: false, ...patch });
    expect(detailRank(c({ watched: true, ordered: true }), 7)).toBe(DETAIL_RANK.watched);
    expect(detailRank(c({ ordered: true }), 7)).toBe(DETAIL_RANK.ordered);
    expect(detailRank(c({}), 7)).toBe(DETAIL_RANK.focus);
    expect(detailRank(c({}), 8)).toBe(DETAIL_RANK.rest);
    expect(detailRank(c({}), null)).toBe(DETAIL_RANK.rest);
  });

  it('is a permutation with ranks that never fall back and the given order kept within a rank', () => {
    fc.assert(
      fc.property(candidatesArb, focusArb, (candidates, focus) => {
        const ordered = orderDetails(candidates, focus);
        expect([...ordered].sort((a, b) => a.productRef - b.productRef)).toEqual(candidates);
        for (let i = 1; i < ordered.length; i++) {
          const [before, after] = [ordered[i - 1], ordered[i]];
          if (!before || !after) throw new Error('index out of range');
          const [rb, ra] = [detailRank(before, focus), detailRank(after, focus)];
          expect(rb).toBeLessThanOrEqual(ra);
          if (rb === ra) expect(before.productRef).toBeLessThan(after.productRef);
        }
      }),
    );
  });

  it('the queue follows the focus of each pick, yields each needed product once and skips stored ones', () => {
    fc.assert(
      fc.property(candidatesArb, fc.array(focusArb, { minLength: 1, maxLength: 60 }), fc.func(fc.boolean()), (candidates, focuses, storedMeanwhile) => {
        let pick = 0;
        const currentFocus = (): number | null => focuses[pick % focuses.length] ?? null;
        const stored = new Set(candidates.filter((c) => storedMeanwhile(c.productRef)).map((c) => c.productRef));
        const remaining = new Map(candidates.map((c) => [c.productRef, c]));
        const queue = createDetailQueue(candidates, { focus: currentFocus, stillNeeded: (ref) => !stored.has(ref) });
        const yielded: number[] = [];
        for (let ref = queue.next(); ref !== undefined; ref = queue.next()) {
          const candidate = remaining.get(ref);
          if (!candidate) throw new Error(`yielded ${ref} twice or unknown`);
          // Nothing still needed ranks better under the focus this pick saw.
          const focus = currentFocus();
          for (const other of remaining.values()) if (!stored.has(other.productRef)) expect(detailRank(other, focus)).toBeGreaterThanOrEqual(detailRank(candidate, focus));
          remaining.delete(ref);
          for (const [key, other] of remaining) if (stored.has(key) && detailRank(other, focus) <= detailRank(candidate, focus)) remaining.delete(key);
          yielded.push(ref);
          pick += 1;
        }
        expect(yielded.sort((a, b) => a - b)).toEqual(candidates.filter((c) => !stored.has(c.productRef)).map((c) => c.productRef));
        expect(queue.skipped).toBe(stored.size);
      }),
    );
  });
});
