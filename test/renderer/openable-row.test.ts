// The one helper behind every row that opens something (catalog, orders, queue, cases, variants):
// Enter and Space open it once; other keys, held keys, shortcuts, an IME's Enter and keys typed in a
// button or box inside the row do not; a table row keeps its row role, a lone row is a button.
import { describe, expect, it } from 'vitest';
import { openableRow, opensRow, type RowKeyEvent } from '../../src/renderer/src/lib/openable-row';

const ROW = { name: 'the row' };

function press(key: string, extra: Partial<Omit<RowKeyEvent, 'preventDefault' | 'nativeEvent'>> & { composing?: boolean } = {}): RowKeyEvent & { prevented: number } {
  const event = {
    key,
    repeat: extra.repeat ?? false,
    altKey: extra.altKey ?? false,
    ctrlKey: extra.ctrlKey ?? false,
    metaKey: extra.metaKey ?? false,
    target: 'target' in extra ? extra.target : ROW,
    currentTarget: ROW,
    nativeEvent: { isComposing: extra.composing ?? false },
    prevented: 0,
    preventDefault() {
      event.prevented += 1;
    },
  };
  return event;
}

function counted(kind: 'button' | 'row' = 'row', popup?: 'dialog') {
  const opened = { count: 0 };
  const props = openableRow(() => (opened.count += 1), { label: '查看订单：月卡', kind, ...(popup === undefined ? {} : { popup }) });
  return { opened, props };
}

describe('a row that opens', () => {
  it('opens once on Enter and once on Space, and keeps Space from scrolling the list', () => {
    const { opened, props } = counted();
    const enter = press('Enter');
    props.onKeyDown(enter);
    expect(opened.count).toBe(1);
    expect(enter.prevented).toBe(1);
    const space = press(' ');
    props.onKeyDown(space);
    expect(opened.count).toBe(2);
    expect(space.prevented).toBe(1);
  });

  it('does nothing on other keys, and leaves them to the browser', () => {
    const { opened, props } = counted();
    for (const key of ['Tab', 'Escape', 'ArrowDown', 'ArrowUp', 'a', 'Spacebar', 'Shift', 'Home', 'NumpadEnter', 'F2']) {
      const event = press(key);
      props.onKeyDown(event);
      expect(event.prevented, key).toBe(0);
    }
    expect(opened.count).toBe(0);
  });

  it('opens no second time for a key held down, a shortcut or an input method still composing', () => {
    const { opened, props } = counted();
    props.onKeyDown(press('Enter'));
    props.onKeyDown(press('Enter', { repeat: true }));
    props.onKeyDown(press(' ', { repeat: true }));
    props.onKeyDown(press('Enter', { ctrlKey: true }));
    props.onKeyDown(press('Enter', { metaKey: true }));
    props.onKeyDown(press(' ', { altKey: true }));
    props.onKeyDown(press('Enter', { composing: true }));
    expect(opened.count).toBe(1);
  });

  it('ignores Enter and Space pressed in a button or box inside the row (they bubble up to it)', () => {
    const { opened, props } = counted();
    const inner = press('Enter', { target: { name: 'the buy button' } });
    props.onKeyDown(inner);
    props.onKeyDown(press(' ', { target: { name: 'a text box' } }));
    expect(opened.count).toBe(0);
    expect(inner.prevented).toBe(0);
    expect(opensRow(press('Enter'))).toBe(true);
  });

  it('opens once per click', () => {
    const { opened, props } = counted();
    props.onClick();
    expect(opened.count).toBe(1);
  });

  it('is focusable, named, ringed; a lone row is a button that opens a dialog, a table row stays a row', () => {
    const button = counted('button', 'dialog').props;
    expect(button).toMatchObject({ role: 'button', 'aria-haspopup': 'dialog', 'aria-label': '查看订单：月卡', tabIndex: 0, className: 'openable-row' });
    expect('aria-haspopup' in counted('button').props).toBe(false);
    const row = counted('row', 'dialog').props;
    expect(row).toMatchObject({ 'aria-label': '查看订单：月卡', tabIndex: 0, className: 'openable-row' });
    expect('role' in row).toBe(false);
    expect('aria-haspopup' in row).toBe(false);
  });
});
