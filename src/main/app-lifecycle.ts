// The desktop app's life (contract §17): closing the window hides it (window-close.ts) while core keeps
// working; every quit passes the guard that asks while orders are in flight (quit-guard.ts); a quit
// allowed stops main's services (core closes its database, the clipboard loses our value) before the
// process ends. index.ts wires it to Electron's app; tests drive it with fakes.
import { labelsFor, pickLanguage } from './app-locale';
import type { MainServices } from './main-services';
import { createQuitGuard, type QuitQuestion } from './quit-guard';
import { closeAction } from './window-close';

interface PreventableEvent {
  preventDefault(): void;
}

/** The members of Electron's app used here. */
export interface LifecycleApp {
  on(event: 'before-quit' | 'will-quit', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  quit(): void;
  getPreferredSystemLanguages(): string[];
}

/** The members of the main window used here. */
export interface LifecycleWindow {
  on(event: 'close', listener: (event: PreventableEvent) => void): unknown;
  hide(): void;
}

export interface AppLifecycleOptions {
  app: LifecycleApp;
  platform: NodeJS.Platform;
  services(): MainServices | null;
  /** The native question; true: quit. */
  ask(question: QuitQuestion): Promise<boolean>;
  onStopFailed?(error: unknown): void;
}

export interface AppLifecycle {
  /** Closing this window hides it (or quits, with close to tray off on Windows and Linux). */
  attachWindow(window: LifecycleWindow): void;
}

export function createAppLifecycle(options: AppLifecycleOptions): AppLifecycle {
  const { app, platform } = options;
  let stopping: 'no' | 'stopping' | 'done' = 'no';
  const guard = createQuitGuard({
    // Before core is open nothing is being sent: quitting then asks nothing.
    inFlight: async () => (await options.services()?.inFlight()) ?? { notSent: 0, awaitingAnswer: 0 },
    ask: (question) => options.ask(question),
    labels: () => options.services()?.labels() ?? labelsFor(pickLanguage(app.getPreferredSystemLanguages())),
    quit: () => app.quit(),
  });

  app.on('before-quit', (event) => guard.beforeQuit(event));

  // Windows close only for a quit now, or before core opened (the unlock step): then, off macOS, that is quitting.
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });

  app.on('will-quit', (event) => {
    const services = options.services();
    if (stopping === 'done' || services === null) return;
    event.preventDefault();
    if (stopping === 'stopping') return;
    stopping = 'stopping';
    services
      .stop()
      .catch((error: unknown) => options.onStopFailed?.(error))
      .finally(() => {
        stopping = 'done';
        app.quit();
      });
  });

  return {
    attachWindow(window) {
      window.on('close', (event) => {
        const services = options.services();
        // Before core opened there is no tray to come back from: the window closes as it always did.
        if (services === null) return;
        const action = closeAction({ platform, quitting: guard.allowed, closeToTray: services.closeToTray() });
        if (action === 'close') return;
        event.preventDefault();
        if (action === 'quit') {
          app.quit();
          return;
        }
        window.hide();
        if (platform !== 'darwin') services.windowHidden();
      });
    },
  };
}
