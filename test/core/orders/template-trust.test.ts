// The two small rules under the template source: when a cached template is trusted (its revision is
// the variant's, or it was fetched strictly after the variant row was written), and one shared run per
// key (concurrent asks share one answer, failure included; the key is free again afterwards).
import { describe, expect, it } from 'vitest';
import { isTemplateTrusted } from '../../../src/core/orders/template-source';
import { createKeyedSingleFlight } from '../../../src/core/platform/single-flight';

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

describe('createKeyedSingleFlight', () => {
  it('shares one run per key, answers and failures alike, and frees the key afterwards', async () => {
    const flights = createKeyedSingleFlight<number>();
    let runs = 0;
    let release: (value: number) => void = () => undefined;
    const task = (): Promise<number> => {
      runs += 1;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    const a = flights.run('k', task);
    const b = flights.run('k', task);
    const other = flights.run('other', () => Promise.resolve(7));
    release(5);
    expect(await Promise.all([a, b, other])).toEqual([5, 5, 7]);
    expect(runs).toBe(1);
    const failing = (): Promise<number> => Promise.reject(new Error('no'));
    await expect(Promise.all([flights.run('k', failing), flights.run('k', task)])).rejects.toThrow('no');
    expect(await flights.run('k', () => Promise.resolve(9))).toBe(9);
  });
});
