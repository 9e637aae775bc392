// One run at a time: callers during a run share it; a failure is swallowed; the next call starts anew.
import { describe, expect, it } from 'vitest';
import { createSingleFlight } from '../../../src/core/platform/single-flight';

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
