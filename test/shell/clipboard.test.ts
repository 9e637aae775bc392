import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIPBOARD_CLEAR_MS, createClipboardWriter, type ClipboardLike } from '../../src/main/clipboard';

function fakeClipboard() {
  const state = { text: '', clears: 0 };
  const clipboard: ClipboardLike = {
    writeText: (text) => {
      state.text = text;
    },
    readText: () => state.text,
    clear: () => {
      state.text = '';
      state.clears++;
    },
  };
  return { clipboard, state };
}

describe('clipboard from main', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('clears our value after exactly 30 s', () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    expect(writer.write('CARD-1234-5678')).toEqual({ clearsInSeconds: 30 });
    expect(state.text).toBe('CARD-1234-5678');
    vi.advanceTimersByTime(CLIPBOARD_CLEAR_MS - 1);
    expect(state.text).toBe('CARD-1234-5678');
    vi.advanceTimersByTime(1);
    expect(state.text).toBe('');
    expect(state.clears).toBe(1);
  });

  it('leaves the clipboard alone when the user copied something else meanwhile', () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    writer.write('CARD-1234-5678');
    vi.advanceTimersByTime(10_000);
    state.text = 'the buyer’s own note';
    vi.advanceTimersByTime(CLIPBOARD_CLEAR_MS);
    expect(state.text).toBe('the buyer’s own note');
    expect(state.clears).toBe(0);
  });

  it('restarts the 30 s for a second copy and clears only that value', () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    writer.write('first');
    vi.advanceTimersByTime(20_000);
    writer.write('second');
    vi.advanceTimersByTime(20_000);
    expect(state.text).toBe('second');
    vi.advanceTimersByTime(10_000);
    expect(state.text).toBe('');
    expect(state.clears).toBe(1);
  });

  it('honours a caller-chosen delay and clears at once on quit if still ours', () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    expect(writer.write('PW-9', 5_000)).toEqual({ clearsInSeconds: 5 });
    writer.clearIfOurs();
    expect(state.text).toBe('');
    vi.advanceTimersByTime(CLIPBOARD_CLEAR_MS);
    expect(state.clears).toBe(1);
    writer.write('PW-10');
    state.text = 'mine';
    writer.clearIfOurs();
    expect(state.text).toBe('mine');
  });
});
