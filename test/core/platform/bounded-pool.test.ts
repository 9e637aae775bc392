// The one bounded pool: never more items in work than allowed, each item once and in order, the first
// failure stops the rest and is thrown only after the items in work finished, stop and abort end a pass.
import { describe, expect, it } from 'vitest';
import { runBounded } from '../../../src/core/platform/bounded-pool';

/** A promise settled by the test, so an item stays in work until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void; fail: (error: unknown) => void } {
  let open = (): void => undefined;
  let fail = (_error: unknown): void => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Lets every queued promise callback run (the pool takes the next item in a callback). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

describe('bounded pool', () => {
  it('keeps at most `concurrency` items in work, takes each item once, in order', async () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    const gates = items.map(() => gate());
    const started: number[] = [];
    let inWork = 0;
    let most = 0;
    const run = runBounded(
      items,
      async (item) => {
        started.push(item);
        inWork += 1;
        most = Math.max(most, inWork);
        await gates[item]?.promise;
        inWork -= 1;
      },
      { concurrency: 3 },
    );
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[1]?.open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.open();
    await run;
    expect(started).toEqual(items);
    expect(most).toBe(3);
  });

  it('runs everything with fewer items than slots, and resolves at once with none', async () => {
    const seen: string[] = [];
    await runBounded(
      ['a', 'b'],
      (item) => {
        seen.push(item);
        return Promise.resolve();
      },
      { concurrency: 8 },
    );
    expect(seen).toEqual(['a', 'b']);
    await expect(runBounded([], () => Promise.reject(new Error('never')), { concurrency: 4 })).resolves.toBeUndefined();
  });

  it('stops taking items after the first failure, lets the ones in work finish, then throws it', async () => {
    const items = [0, 1, 2, 3, 4, 5];
    const slow = gate();
    const started: number[] = [];
    let slowFinished = false;
    const run = runBounded(
      items,
      async (item) => {
        started.push(item);
        if (item === 0) {
          await slow.promise;
          slowFinished = true;
        }
        if (item === 1) throw new Error('item 1 failed');
      },
      { concurrency: 2 },
    );
    let settled = false;
    void run.catch(() => undefined).finally(() => (settled = true));
    await settle();
    expect(started).toEqual([0, 1]);
    expect(settled).toBe(false);
    slow.open();
    await expect(run).rejects.toThrow('item 1 failed');
    expect(slowFinished).toBe(true);
    expect(started).toEqual([0, 1]);
  });

  it('keeps the first failure when several fail, and wraps a thrown non-Error', async () => {
    await expect(
      runBounded([1, 2], (item) => Promise.reject(item === 1 ? new Error('first') : new Error('second')), { concurrency: 2 }),
    ).rejects.toThrow('first');
    await expect(
      runBounded(
        [1],
        () => {
          // A dependency that throws a plain string, not an Error.
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw 'plain text';
        },
        { concurrency: 1 },
      ),
    ).rejects.toThrow('plain text');
  });

  it('ends a pass quietly once stopWhen says so, after the items in work', async () => {
    const started: number[] = [];
    let stop = false;
    await runBounded(
      [0, 1, 2, 3, 4],
      async (item) => {
        started.push(item);
        if (item === 1) stop = true;
        await Promise.resolve();
      },
      { concurrency: 1, stopWhen: () => stop },
    );
    expect(started).toEqual([0, 1]);
  });

  it('rejects with the abort reason and takes nothing more once the signal aborts', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const run = runBounded(
      [0, 1, 2, 3],
      async (item) => {
        started.push(item);
        if (item === 0) controller.abort(new Error('stopped by the user'));
        await Promise.resolve();
      },
      { concurrency: 1, signal: controller.signal },
    );
    await expect(run).rejects.toThrow('stopped by the user');
    expect(started).toEqual([0]);
  });
});
