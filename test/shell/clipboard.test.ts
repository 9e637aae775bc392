import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIPBOARD_CLEAR_MS, createClipboardWriter, type ClipboardLike } from '../../src/main/clipboard';

// Shaped like Electron 45's clipboard: readText and writeText answer promises.
function fakeClipboard() {
  const state = { text: '', clears: 0 };
  const clipboard: ClipboardLike = {
    writeText: (text) => {
      state.text = text;
      return Promise.resolve();
    },
    readText: () => Promise.resolve(state.text),
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

  it('clears our value after exactly 30 s', async () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    await expect(writer.write('CARD-1234-5678')).resolves.toEqual({ clearsInSeconds: 30 });
    expect(state.text).toBe('CARD-1234-5678');
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS - 1);
    expect(state.text).toBe('CARD-1234-5678');
    await vi.advanceTimersByTimeAsync(1);
    expect(state.text).toBe('');
    expect(state.clears).toBe(1);
  });

  it('leaves the clipboard alone when the user copied something else meanwhile', async () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    await writer.write('CARD-1234-5678');
    await vi.advanceTimersByTimeAsync(10_000);
    state.text = 'the buyer’s own note';
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(state.text).toBe('the buyer’s own note');
    expect(state.clears).toBe(0);
  });

  it('restarts the 30 s for a second copy and clears only that value', async () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    await writer.write('first');
    await vi.advanceTimersByTimeAsync(20_000);
    await writer.write('second');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(state.text).toBe('second');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.text).toBe('');
    expect(state.clears).toBe(1);
  });

  it('honours a caller-chosen delay and clears at once on quit if still ours', async () => {
    const { clipboard, state } = fakeClipboard();
    const writer = createClipboardWriter(clipboard);
    await expect(writer.write('PW-9', 5_000)).resolves.toEqual({ clearsInSeconds: 5 });
    await writer.clearIfOurs();
    expect(state.text).toBe('');
    await vi.advanceTimersByTimeAsync(CLIPBOARD_CLEAR_MS);
    expect(state.clears).toBe(1);
    await writer.write('PW-10');
    state.text = 'mine';
    await writer.clearIfOurs();
    expect(state.text).toBe('mine');
  });

  it('keeps a value copied while the check before a clear was still reading', async () => {
    const { clipboard, state } = fakeClipboard();
    const pending: { release: (() => void) | null } = { release: null };
    const slow: ClipboardLike = {
      ...clipboard,
      readText: () =>
        new Promise((resolve) => {
          const seen = state.text;
          pending.release = () => resolve(seen);
        }),
    };
    const writer = createClipboardWriter(slow);
    await writer.write('first');
    const clearing = writer.clearIfOurs();
    await writer.write('second');
    expect(pending.release).not.toBeNull();
    pending.release?.();
    await clearing;
    expect(state.text).toBe('second');
    expect(state.clears).toBe(0);
  });
});
