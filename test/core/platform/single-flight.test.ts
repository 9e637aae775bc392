// One run at a time: callers during a run share it; a failure is swallowed; the next call starts anew.
// Keyed: one run per key, whose result (or failure) every caller during it shares.
import { describe, expect, it } from 'vitest';
import { createKeyedSingleFlight, createSingleFlight } from '../../../src/core/platform/single-flight';

describe('createSingleFlight', () => {
  it('runs the task once for callers that come while it runs, and again after it ended', async () => {
    const flight = createSingleFlight();
    let runs = 0;
    let release: () => void = () => undefined;
    const task = (): Promise<void> => {
      runs += 1;
      return new Promise<void>((resolve) => (release = resolve));
    };
    const first = flight.run(task);
    const second = flight.run(task);
    expect(flight.running()).toBe(first);
    expect(second).toBe(first);
    release();
    await Promise.all([first, second]);
    expect(runs).toBe(1);
    expect(flight.running()).toBeNull();
    const third = flight.run(task);
    release();
    await third;
    expect(runs).toBe(2);
  });

  it('swallows the failure of a run, and is free again after it', async () => {
    const flight = createSingleFlight();
    await expect(flight.run(() => Promise.reject(new Error('no route')))).resolves.toBeUndefined();
    expect(flight.running()).toBeNull();
  });
});

describe('createKeyedSingleFlight', () => {
  it('shares one run and its result per key, runs other keys apart, and runs again after it ended', async () => {
    const flight = createKeyedSingleFlight<number, string>();
    const runs: number[] = [];
    const releases = new Map<number, (value: string) => void>();
    const task = (key: number) => (): Promise<string> => {
      runs.push(key);
      return new Promise<string>((resolve) => releases.set(key, resolve));
    };
    const a1 = flight.run(1, task(1));
    const a2 = flight.run(1, task(1));
    const b = flight.run(2, task(2));
    expect(a2).toBe(a1);
    expect(runs).toEqual([1, 2]);
    releases.get(1)?.('one');
    releases.get(2)?.('two');
    expect(await Promise.all([a1, a2, b])).toEqual(['one', 'one', 'two']);
    const again = flight.run(1, task(1));
    releases.get(1)?.('one again');
    expect(await again).toBe('one again');
    expect(runs).toEqual([1, 2, 1]);
  });

  it('hands a failure to every caller of that run, and is free for the key again after it', async () => {
    const flight = createKeyedSingleFlight<string, number>();
    let reject: (error: Error) => void = () => undefined;
    const failing = (): Promise<number> => new Promise<number>((_, no) => (reject = no));
    const first = flight.run('k', failing);
    const second = flight.run('k', failing);
    reject(new Error('no route'));
    await expect(first).rejects.toThrow('no route');
    await expect(second).rejects.toThrow('no route');
    await expect(flight.run('k', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
