// The shell's start-up against a fake `electron` module: the app:// scheme is made privileged before
// the app is ready, its handler serves the built renderer (and nothing outside it) once it is, the
// window loads app://procure-desk/index.html (never a file), and a packaged Linux build says once
// that it does not update itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'pd-main-startup-'));
const order: string[] = [];
const handlers = new Map<string, (request: Request) => Promise<Response>>();
const loaded: string[] = [];
const messages: { title?: string; detail?: string }[] = [];
let resolveReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  resolveReady = resolve;
});

class FakeBrowserWindow {
  static getAllWindows(): FakeBrowserWindow[] {
    return [];
  }
  constructor(readonly options: unknown) {
    order.push('window');
  }
  loadURL(url: string): Promise<void> {
    loaded.push(url);
    return Promise.resolve();
  }
  loadFile(path: string): Promise<void> {
    loaded.push(`file:${path}`);
    return Promise.resolve();
  }
  once(): void {}
  on(): void {}
}

vi.mock('electron', () => ({
  app: {
    enableSandbox: () => order.push('enableSandbox'),
    requestSingleInstanceLock: () => true,
    on: () => undefined,
    whenReady: () => ready.then(() => order.push('ready')),
    isPackaged: true,
    getPreferredSystemLanguages: () => ['en-US'],
    getPath: () => dir,
    getVersion: () => '0.1.0',
    quit: () => undefined,
    exit: () => undefined,
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown) => order.push(`privileged ${JSON.stringify(schemes)}`),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
      order.push(`handle ${scheme}`);
      handlers.set(scheme, handler);
    },
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => undefined,
      setPermissionCheckHandler: () => undefined,
      webRequest: { onHeadersReceived: () => undefined },
      registerPreloadScript: () => undefined,
    },
  },
  BrowserWindow: FakeBrowserWindow,
  ipcMain: { handle: () => undefined, removeHandler: () => undefined },
  dialog: {
    showMessageBox: (options: { title?: string; detail?: string }) => {
      messages.push(options);
      return Promise.resolve({ response: 0 });
    },
    showErrorBox: (title: string, detail: string) => messages.push({ title, detail }),
  },
}));
vi.mock('../../resources/icon.png?asset', () => ({ default: '/icon.png' }));
vi.mock('../../src/main/main-services', async () => {
  const { labelsFor } = await import('../../src/main/app-locale');
  return { startMainServices: () => Promise.resolve({ labels: () => labelsFor('en'), announce: () => undefined, stop: () => Promise.resolve() }) };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shell start-up', () => {
  it('registers app:// privileged before ready, serves only the built renderer from it, and loads the window there', async () => {
    // out/main/index.js sits beside out/renderer: the fake build folder mirrors that.
    const renderer = join(import.meta.dirname, '../../src/renderer');
    const savedPlatform = process.platform;
    Object.defineProperty(process, 'platform', { value: 'linux' });
    Object.defineProperty(process, 'resourcesPath', { value: dir, configurable: true });
    try {
      await import('../../src/main/index');
      expect(order).toEqual(['enableSandbox', `privileged [{"scheme":"app","privileges":{"standard":true,"secure":true,"supportFetchAPI":true}}]`]);
      resolveReady();
      await vi.waitFor(() => expect(loaded).toHaveLength(1));
      expect(order.slice(2, 5)).toEqual(['ready', 'handle app', 'window']);
      expect(loaded).toEqual(['app://procure-desk/index.html']);

      const handler = handlers.get('app');
      if (handler === undefined) throw new Error('no app:// handler');
      // Under vitest, main's folder is src/main, so the "built renderer" is src/renderer.
      const index = await handler(new Request('app://procure-desk/index.html'));
      expect(index.status).toBe(200);
      expect(await index.text()).toBe(readFileSync(join(renderer, 'index.html'), 'utf8'));
      expect(index.headers.get('content-security-policy')).toContain("img-src 'self' data:");
      for (const outside of ['app://procure-desk/%2e%2e/main/index.ts', 'app://procure-desk/..%2fmain/index.ts']) {
        const answer = await handler(new Request(outside));
        expect(answer.status, outside).toBeGreaterThanOrEqual(400);
        expect(await answer.text(), outside).not.toContain('import');
      }
      expect((await handler(new Request('app://procure-desk/merchant-image?url=http%3A%2F%2Fimg.example%2Fa.png'))).status).toBe(400);

      // A packaged Linux build (AppImage) says once why it does not update itself.
      await vi.waitFor(() => expect(messages).toHaveLength(1));
      expect(messages[0]).toMatchObject({ title: 'Automatic updates are off', detail: expect.stringContaining('AppImage') as string });
      expect(readFileSync(join(dir, 'update-notice'), 'utf8')).toBe('appimage 0.1.0');
    } finally {
      Object.defineProperty(process, 'platform', { value: savedPlatform });
    }
  });
});
