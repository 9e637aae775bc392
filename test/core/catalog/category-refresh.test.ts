// When a sync asks for the categories again (core/catalog/category-refresh.ts): none stored, a listed
// catalogRef not stored, or older than a day; otherwise never, so a second sync sends only list pages.
import { describe, expect, it } from 'vitest';
import { CATEGORY_MAX_AGE_S, categoriesDue, type CategoryFacts } from '../../../src/core/catalog/category-refresh';

const NOW = 1_790_000_000;
const facts = (patch: Partial<CategoryFacts>): CategoryFacts => ({ stored: 12, oldestSyncedAt: NOW - 60, unknownListedRefs: 0, ...patch });

describe('categories due', () => {
  it('only when none are stored, a listed catalogRef is unknown, or they are older than a day', () => {
    expect(categoriesDue(facts({}), NOW)).toBe(false);
    expect(categoriesDue(facts({ oldestSyncedAt: NOW - CATEGORY_MAX_AGE_S }), NOW)).toBe(false);
    expect(categoriesDue(facts({ oldestSyncedAt: NOW - CATEGORY_MAX_AGE_S - 1 }), NOW)).toBe(true);
    expect(categoriesDue(facts({ stored: 0, oldestSyncedAt: null }), NOW)).toBe(true);
    expect(categoriesDue(facts({ unknownListedRefs: 1 }), NOW)).toBe(true);
  });
});
