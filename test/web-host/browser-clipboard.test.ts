// vault.copy in the web host (src/web-host/browser-clipboard.ts and the tab's side,
// src/renderer/src/bridge/tab-clipboard.ts + web-socket-transport.ts): the value goes only to the tab
// whose call asked, the call settles on that tab's answer (or a timeout), and the tab clears its
// clipboard later only when it still holds the value — or when it may not look.
import { describe, expect, it, vi } from 'vitest';
import { createBrowserClipboard, type ClipboardSender } from '../../src/web-host/browser-clipboard';
import { writeAndClearLater, type ClipboardPort } from '../../src/renderer/src/bridge/tab-clipboard';
import type { ClipboardMessage } from '../../src/shared/ipc/web-socket-protocol';

function recordingTab(answer = true): { sender: ClipboardSender; frames: ClipboardMessage[] } {
  const frames: ClipboardMessage[] = [];
  return {
    frames,
    sender: (message) => {
      frames.push(message);
      return answer;
    },
  };
}

describe('web host clipboard', () => {
  it('sends the value only to the tab whose call is running, and settles on its answer', async () => {
    const clipboard = createBrowserClipboard();
    const asking = recordingTab();
    const other = recordingTab();
    const copied = clipboard.runFor(asking.sender, () => clipboard.write('CARD-0001', 30_000));
    await clipboard.runFor(other.sender, () => Promise.resolve());
    expect(asking.frames).toEqual([{ clipboard: { id: expect.any(Number) as number, text: 'CARD-0001', clearAfterMs: 30_000 } }]);
    expect(other.frames).toEqual([]);
    const id = asking.frames[0]?.clipboard.id ?? -1;
    clipboard.acknowledge({ clipboardAck: { id: id + 1, ok: true } }); // someone else's id: ignored
    clipboard.acknowledge({ clipboardAck: { id, ok: true } });
    await expect(copied).resolves.toBeUndefined();
  });

  it('passes the browser’s refusal on, in words', async () => {
    const clipboard = createBrowserClipboard();
    const tab = recordingTab();
    const copied = clipboard.runFor(tab.sender, () => clipboard.write('x', 1000));
    clipboard.acknowledge({ clipboardAck: { id: tab.frames[0]?.clipboard.id ?? -1, ok: false, message: 'Document is not focused.' } });
    await expect(copied).rejects.toThrow(/refused to write the clipboard: Document is not focused/);
  });

  it('fails clearly without a calling tab, when the tab is gone, and when it never answers', async () => {
    const clipboard = createBrowserClipboard(50);
    await expect(clipboard.write('x', 1000)).rejects.toThrow(/no browser tab asked/);
    await expect(clipboard.runFor(recordingTab(false).sender, () => clipboard.write('x', 1000))).rejects.toThrow(/tab that asked is gone/);
    await expect(clipboard.runFor(recordingTab().sender, () => clipboard.write('x', 1000))).rejects.toThrow(/did not confirm the copy in time/);
  });
});

function fakePort(options: { readRefused?: boolean } = {}): ClipboardPort & { value: string; writes: string[] } {
  const port = {
    value: 'earlier',
    writes: [] as string[],
    writeText: (text: string) => {
      port.value = text;
      port.writes.push(text);
      return Promise.resolve();
    },
    readText: () => (options.readRefused === true ? Promise.reject(new Error('NotAllowedError')) : Promise.resolve(port.value)),
  };
  return port;
}

describe('tab clipboard', () => {
  it('writes now and clears later when the clipboard still holds the value', async () => {
    vi.useFakeTimers();
    try {
      const port = fakePort();
      await writeAndClearLater(port, 'CARD-0001', 30_000);
      expect(port.value).toBe('CARD-0001');
      await vi.advanceTimersByTimeAsync(29_000);
      expect(port.value).toBe('CARD-0001');
      await vi.advanceTimersByTimeAsync(1_000);
      expect(port.value).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves something the buyer copied afterwards alone', async () => {
    vi.useFakeTimers();
    try {
      const port = fakePort();
      await writeAndClearLater(port, 'CARD-0001', 30_000);
      port.value = 'the buyer’s own text';
      await vi.advanceTimersByTimeAsync(30_000);
      expect(port.value).toBe('the buyer’s own text');
    } finally {
      vi.useRealTimers();
    }
  });

  it('clears anyway when the browser will not let it read', async () => {
    vi.useFakeTimers();
    try {
      const port = fakePort({ readRefused: true });
      await writeAndClearLater(port, 'CARD-0001', 30_000);
      port.value = 'maybe the buyer’s';
      await vi.advanceTimersByTimeAsync(30_000);
      expect(port.value).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
