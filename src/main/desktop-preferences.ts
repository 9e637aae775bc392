// The app's settings as main applies them (contract §17): the language of its menus, tray and dialogs,
// close to tray, start at login. Read from core once it is open, and from every answer to the
// renderer's settings.get and settings.set on their way back (main binds this watcher in front of the
// service), so a language switched in Settings relabels the menus and the tray at once. A login item
// the system refuses to change puts the setting back and answers the refusal in words.
import type { IpcResult } from '../shared/ipc/ipc-result';
import { settingsSchema, type Settings } from '../shared/ipc/views/settings';
import { appLanguage, labelsFor, pickLanguage, type Labels, type MainLanguage } from './app-locale';
import type { IpcCallHandler } from './ipc/bind-ipc-handlers';
import { syncLoginItem, type LoginItemPort } from './login-item';

export interface DesktopPreferences {
  readonly language: MainLanguage;
  readonly closeToTray: boolean;
  readonly startAtLogin: boolean;
}

export interface DesktopPreferencesOptions {
  systemLanguages(): readonly string[];
  loginItem: LoginItemPort;
  /** Rebuilds what main shows in words (menu, tray) in the labels of a new language. */
  relabel(labels: Labels): void;
  warn(message: string, fields: Readonly<Record<string, string>>): void;
}

export interface DesktopPreferencesStore {
  current(): DesktopPreferences;
  labels(): Labels;
  /** Core's settings at start-up: the words follow them, and the system's login item follows the setting. */
  load(service: IpcCallHandler): Promise<void>;
  /** The call handler main binds to IPC: the service's, with settings answers applied on their way back. */
  watch(service: IpcCallHandler): IpcCallHandler;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'unknown');

export function createDesktopPreferences(options: DesktopPreferencesOptions): DesktopPreferencesStore {
  let current: DesktopPreferences = { language: pickLanguage(options.systemLanguages()), closeToTray: true, startAtLogin: false };

  const apply = (settings: Settings): void => {
    const language = appLanguage(settings.language, options.systemLanguages());
    const relabel = language !== current.language;
    current = { language, closeToTray: settings.closeToTray, startAtLogin: settings.startAtLogin };
    if (relabel) options.relabel(labelsFor(language));
  };
  const settingsOf = (answer: IpcResult<unknown>): Settings | null => {
    if (!answer.ok) return null;
    const parsed = settingsSchema.safeParse(answer.value);
    return parsed.success ? parsed.data : null;
  };

  /** The buyer changed start at login: the system follows now, or the setting goes back as it was. */
  const changeLoginItem = async (service: IpcCallHandler, wanted: boolean): Promise<IpcResult<unknown> | null> => {
    try {
      options.loginItem.set(wanted);
      return null;
    } catch (error) {
      options.warn('the login item could not be changed', { error: errorText(error) });
      const back = settingsOf(await service.handle('settings.set', { startAtLogin: !wanted }));
      if (back !== null) apply(back);
      return { ok: false, error: { code: 'ACTION_NOT_ALLOWED', message: `the system did not change whether Procure Desk starts at login: ${errorText(error)}` } };
    }
  };

  return {
    current: () => current,
    labels: () => labelsFor(current.language),
    async load(service) {
      const settings = settingsOf(await service.handle('settings.get', undefined));
      if (settings === null) return;
      apply(settings);
      try {
        syncLoginItem(options.loginItem, settings.startAtLogin);
      } catch (error) {
        options.warn('the login item could not follow the setting', { error: errorText(error) });
      }
    },
    watch(service) {
      return {
        async handle(channel, rawInput) {
          const answer = await service.handle(channel, rawInput);
          if (channel !== 'settings.get' && channel !== 'settings.set') return answer;
          const settings = settingsOf(answer);
          if (settings === null) return answer;
          const before = current.startAtLogin;
          apply(settings);
          if (channel === 'settings.set' && settings.startAtLogin !== before) return (await changeLoginItem(service, settings.startAtLogin)) ?? answer;
          return answer;
        },
      };
    },
  };
}
