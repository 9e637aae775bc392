// The rule under the template source: when a cached template is trusted (its revision is the
// variant's, or it was fetched strictly after the variant row was written). The shared run per key is
// tested with the platform (single-flight.test.ts).
import { describe, expect, it } from 'vitest';
import { isTemplateTrusted } from '../../../src/core/orders/template-source';

describe('isTemplateTrusted', () => {
  it('trusts the same revision whenever it was fetched', () => {
    expect(isTemplateTrusted({ variantRevision: 3, variantSyncedAt: 200, templateRevision: 3, templateFetchedAt: 100 })).toBe(true);
  });

  it('distrusts a template when a later detail or snapshot shows another revision, a tie included', () => {
    expect(isTemplateTrusted({ variantRevision: 4, variantSyncedAt: 200, templateRevision: 3, templateFetchedAt: 100 })).toBe(false);
    expect(isTemplateTrusted({ variantRevision: 4, variantSyncedAt: 200, templateRevision: 3, templateFetchedAt: 200 })).toBe(false);
  });

  it('trusts a template fetched after the variant row: the merchant’s later word', () => {
    expect(isTemplateTrusted({ variantRevision: 3, variantSyncedAt: 100, templateRevision: 4, templateFetchedAt: 101 })).toBe(true);
  });
});
