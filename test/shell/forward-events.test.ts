import { describe, expect, it, vi } from 'vitest';
import type { EventName } from '../../src/shared/ipc/contract';
import { forwardEvents } from '../../src/main/ipc/forward-events';

function source() {
  let listener: ((event: EventName, payload: unknown) => void) | null = null;
  return {
    onEvent: (l: (event: EventName, payload: unknown) => void) => {
      listener = l;
      return () => {
        listener = null;
      };
    },
    emit: (event: EventName, payload: unknown) => listener?.(event, payload),
    subscribed: () => listener !== null,
  };
}

describe('events pushed to the window', () => {
  it('sends only the checked payload on the pd-event: name, to a live window only', () => {
    const events = source();
    const contents = { isDestroyed: vi.fn(() => false), send: vi.fn() };
    let target: typeof contents | null = contents;
    const problems: unknown[] = [];
    const stop = forwardEvents({ onEvent: events.onEvent, target: () => target, onProblem: (p) => problems.push(p) });

    events.emit('orders.changed', { clientOrderRefs: ['PD_1'] });
    expect(contents.send).toHaveBeenCalledWith('pd-event:orders.changed', { clientOrderRefs: ['PD_1'] });
    expect(contents.send.mock.calls[0]).toHaveLength(2);

    events.emit('orders.changed', { clientOrderRefs: 'everything' });
    expect(contents.send).toHaveBeenCalledTimes(1);
    expect(problems).toHaveLength(1);

    contents.isDestroyed.mockReturnValue(true);
    events.emit('catalog.changed', { productRefs: [1] });
    target = null;
    events.emit('catalog.changed', { productRefs: [2] });
    expect(contents.send).toHaveBeenCalledTimes(1);

    stop();
    expect(events.subscribed()).toBe(false);
  });
});
