// One contract call from inside the page, over its own WebSocket to the web host (the page's session
// cookie opens it, as the app's bridge does): for steps a test needs that have no screen in its lane
// yet (adding a merchant profile, switching to it), and for reading what core stored, not only what
// the screen says. The script is text: the test's own types know no DOM.
import type { Page } from '@playwright/test';
import { WEB_BRIDGE_META_NAME } from '../../../src/shared/ipc/web-socket-protocol';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../src/shared/ipc/contract';

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

const callScript = (channel: string, input: unknown): string => `new Promise((resolve, reject) => {
  const path = document.querySelector('meta[name="${WEB_BRIDGE_META_NAME}"]')?.getAttribute('content') ?? '/bridge';
  const socket = new WebSocket((location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + location.host + path);
  const timer = setTimeout(() => reject(new Error('no answer in 60 s')), 60000);
  socket.onopen = () => socket.send(JSON.stringify({ id: 1, channel: ${JSON.stringify(channel)}, input: ${JSON.stringify(input ?? null)} ?? undefined }));
  socket.onmessage = (message) => {
    const parsed = JSON.parse(String(message.data));
    if (parsed.id !== 1 || parsed.result === undefined) return;
    clearTimeout(timer);
    socket.close();
    resolve(parsed.result);
  };
  socket.onerror = () => reject(new Error('the bridge socket failed'));
})`;

export async function bridgeCall<C extends ChannelName>(page: Page, channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const answer = await page.evaluate<Answer>(callScript(channel, input));
  if (!answer.ok) throw new Error(`${channel} failed: ${answer.error.code} ${answer.error.message}`);
  return answer.value as ChannelOutput<C>;
}
