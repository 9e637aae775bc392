// The one fallback decision (desk/fallback-choice.ts), as properties over random links: the rule never
// picks a member above its limit or one that cannot supply, nothing is picked without a rule or when
// the variant asked for can be ordered, and the rule's preference decides among those that qualify.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canSupply, decideFallback, type MemberFacts } from '../../../src/core/desk/fallback-choice';
import type { FallbackRule } from '../../../src/shared/ipc/views/compare';

const PROFILES = ['p1', 'p2', 'p3', 'p4', 'p5'];

const memberArb = (profileId: string, productRef: number): fc.Arbitrary<MemberFacts> =>
  fc.record({
    key: fc.constant({ profileId, productRef, variantRef: 0 }),
    unitPriceFen: fc.option(fc.integer({ min: 1, max: 5000 }), { freq: 8 }),
    supply: fc.constantFrom('available', 'available', 'outOfStock', 'unavailable', 'unknown'),
    remainingUnits: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 2 }),
  });

const questionArb = fc
  .record({
    count: fc.integer({ min: 1, max: 5 }),
    units: fc.integer({ min: 1, max: 25 }),
    hasRule: fc.boolean(),
    limit: fc.integer({ min: 1, max: 5000 }),
    preference: fc.shuffledSubarray(PROFILES, { minLength: 1 }),
  })
  .chain(({ count, units, hasRule, limit, preference }) =>
    fc.record({
      current: memberArb('p1', 100),
      others: fc.tuple(...PROFILES.slice(1, count + 1).map((profileId, i) => memberArb(profileId, 200 + i))),
      units: fc.constant(units),
      rule: fc.constant<FallbackRule | null>(hasRule ? { maxUnitPriceFen: limit, preference } : null),
    }),
  );

describe('decideFallback', () => {
  it('never chooses a member above the limit, one that cannot supply, or one the rule does not name', () => {
    fc.assert(
      fc.property(questionArb, (question) => {
        const { choice } = decideFallback(question);
        if (choice === null) return;
        expect(question.rule).not.toBeNull();
        expect(choice.unitPriceFen).not.toBeNull();
        expect(choice.unitPriceFen ?? Infinity).toBeLessThanOrEqual(question.rule?.maxUnitPriceFen ?? 0);
        expect(canSupply(choice, question.units)).toBe(true);
        expect(question.rule?.preference).toContain(choice.key.profileId);
        expect(choice.key).not.toEqual(question.current.key);
      }),
      { numRuns: 500 },
    );
  });

  it('chooses nothing without a rule, and nothing when the variant asked for can be ordered within the limit', () => {
    fc.assert(
      fc.property(questionArb, (question) => {
        const decision = decideFallback(question);
        if (question.rule === null) {
          expect(decision.choice).toBeNull();
          expect(decision.alternatives.every((member) => member.withinLimit === null)).toBe(true);
        }
        const fine = canSupply(question.current, question.units) && (question.rule === null || (question.current.unitPriceFen ?? Infinity) <= question.rule.maxUnitPriceFen);
        expect(decision.reason === null).toBe(fine);
        if (fine) expect(decision.choice).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('follows the preference: no qualifying member of an earlier merchant is passed over, and some member is chosen when one qualifies', () => {
    fc.assert(
      fc.property(questionArb, (question) => {
        const { choice, reason } = decideFallback(question);
        const rule = question.rule;
        if (rule === null || reason === null) return;
        const qualifies = question.others.filter((m) => rule.preference.includes(m.key.profileId) && canSupply(m, question.units) && (m.unitPriceFen ?? Infinity) <= rule.maxUnitPriceFen);
        if (qualifies.length === 0) {
          expect(choice).toBeNull();
          return;
        }
        expect(choice).not.toBeNull();
        const rank = (m: MemberFacts): number => rule.preference.indexOf(m.key.profileId);
        for (const other of qualifies) expect(rank(choice as MemberFacts)).toBeLessThanOrEqual(rank(other));
      }),
      { numRuns: 500 },
    );
  });

  it('lists the alternatives in the rule preference, then cheapest first', () => {
    fc.assert(
      fc.property(questionArb, (question) => {
        const { alternatives } = decideFallback(question);
        expect(alternatives).toHaveLength(question.others.length);
        const rank = (m: MemberFacts): number => {
          const at = question.rule?.preference.indexOf(m.key.profileId) ?? -1;
          return at < 0 ? Infinity : at;
        };
        for (let i = 1; i < alternatives.length; i++) {
          const [a, b] = [alternatives[i - 1] as MemberFacts, alternatives[i] as MemberFacts];
          expect(rank(a) < rank(b) || (rank(a) === rank(b) && (a.unitPriceFen ?? Infinity) <= (b.unitPriceFen ?? Infinity))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('names why: out of stock, unavailable, not enough stock, above the limit', () => {
    const rule: FallbackRule = { maxUnitPriceFen: 1000, preference: ['p2'] };
    const at = (over: Partial<MemberFacts>): MemberFacts => ({ key: { profileId: 'p1', productRef: 1, variantRef: 0 }, unitPriceFen: 900, supply: 'available', remainingUnits: null, ...over });
    const b: MemberFacts = { key: { profileId: 'p2', productRef: 5, variantRef: 0 }, unitPriceFen: 950, supply: 'available', remainingUnits: 10 };
    expect(decideFallback({ current: at({ supply: 'outOfStock', remainingUnits: 0 }), others: [b], rule, units: 1 })).toMatchObject({ reason: 'outOfStock', choice: { key: b.key } });
    expect(decideFallback({ current: at({ supply: 'unknown' }), others: [b], rule, units: 1 }).reason).toBe('unavailable');
    expect(decideFallback({ current: at({ remainingUnits: 2 }), others: [b], rule, units: 3 })).toMatchObject({ reason: 'notEnoughStock', choice: { key: b.key } });
    expect(decideFallback({ current: at({ unitPriceFen: 1200 }), others: [b], rule, units: 1 })).toMatchObject({ reason: 'aboveLimit', choice: { key: b.key } });
    expect(decideFallback({ current: at({ unitPriceFen: 1200 }), others: [{ ...b, unitPriceFen: 1001 }], rule, units: 1 }).choice).toBeNull();
    expect(decideFallback({ current: at({ unitPriceFen: 1200 }), others: [b], rule: null, units: 1 })).toMatchObject({ reason: null, choice: null });
    expect(decideFallback({ current: at({ supply: 'outOfStock' }), others: [b], rule: null, units: 1 })).toMatchObject({ reason: 'outOfStock', choice: null });
  });
});
