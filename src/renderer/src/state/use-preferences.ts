// Language and theme: the buyer's choice is kept in main's settings (so it survives restarts and is
// the same in both hosts) and mirrored in the UI store, which the screens read synchronously.
import { useEffect, useState } from 'react';
import { useSetSettings, useSettings } from '../queries/settings';
import type { LanguagePreference } from '../i18n/locale';
import { useUiStore, type ThemePreference } from './ui-store';

/** Copies the stored settings into the UI store once they arrive (and whenever they change). */
export function usePreferenceSync(): void {
  const settings = useSettings();
  const data = settings.data;
  useEffect(() => {
    if (data === undefined) return;
    const store = useUiStore.getState();
    store.setLanguage(data.language);
    store.setTheme(data.theme);
  }, [data]);
}

export function useChangePreferences() {
  const save = useSetSettings();
  return {
    setLanguage: (language: LanguagePreference): void => {
      useUiStore.getState().setLanguage(language);
      save.mutate({ language });
    },
    setTheme: (theme: ThemePreference): void => {
      useUiStore.getState().setTheme(theme);
      save.mutate({ theme });
    },
  };
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Whether the dark algorithm applies: the explicit choice, or the system's, followed live. */
export function useDarkMode(): boolean {
  const preference = useUiStore((state) => state.theme);
  const [systemDark, setSystemDark] = useState(() => window.matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const onChange = (event: MediaQueryListEvent): void => setSystemDark(event.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return preference === 'system' ? systemDark : preference === 'dark';
}
