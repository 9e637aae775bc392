// The web host's session in a real browser: the printed one-time link opens the app in one browser
// (the secret leaves the address bar, an HttpOnly SameSite=Strict cookie carries the session, a reload
// keeps it); the same link in a second browser opens nothing (and the page says what to do); a new
// link asked for in the terminal (a line on the host's stdin) opens the second browser too.
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDemo } from './support/app-steps';
import { launchChromium, openApp } from './support/browser';
import { startWebHost, type RunningWebHost } from './support/web-host-process';

let host: RunningWebHost;
let browser: Browser;

beforeAll(async () => {
  host = await startWebHost();
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('web host sessions', () => {
  it('one link opens one browser; a second browser needs a new link from the terminal', async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#k=[A-Za-z0-9_-]{43}$/);
    const first = await openApp(browser, host.url, 'en-US');
    await first.page.getByTestId('connect-screen').waitFor();
    expect(first.page.url(), 'the secret is taken off the address bar').not.toContain('#k=');
    const [cookie, ...more] = await first.context.cookies();
    expect(more).toEqual([]);
    expect(cookie).toMatchObject({ name: expect.stringMatching(/^procure_desk_session_\d+$/) as unknown, httpOnly: true, sameSite: 'Strict', expires: -1 });
    expect(cookie?.value).not.toBe(host.url.split('#k=')[1]);
    await connectDemo(first.page);
    await first.page.reload();
    await first.page.getByTestId('nav-catalog').waitFor();

    // The same link again, in another browser: spent.
    const second = await openApp(browser, host.url, 'en-US');
    await second.page.getByTestId('connect-screen').waitFor();
    expect(await second.context.cookies()).toEqual([]);
    await second.page.getByTestId('connect-demo').click();
    await second.page.getByText(/no session with the Procure Desk web host/).waitFor();

    // A fresh link from the terminal opens it (the host is already connected to the demo merchant).
    const fresh = await host.newLaunchUrl();
    expect(fresh).not.toBe(host.url);
    const tab = await second.context.newPage();
    await tab.goto(fresh);
    await tab.getByTestId('nav-catalog').waitFor();
    expect(tab.url()).not.toContain('#k=');
    expect(first.problems.concat(second.problems)).toEqual([]);
    await first.context.close();
    await second.context.close();
  });
});
