// The current locale and its translate function, for components.
import { useCallback } from 'react';
import { useUiStore } from '../state/ui-store';
import { resolveLocale, type Locale } from './locale';
import type { MessageKey } from './messages-en';
import { translate, translateDynamic, type Params } from './translate';

export interface I18n {
  readonly locale: Locale;
  t: (key: MessageKey, params?: Params) => string;
  /** For keys built at run time; `fallback` when the table has no such key. */
  td: (key: string, fallback: MessageKey, params?: Params) => string;
}

export function useLocale(): Locale {
  const preference = useUiStore((state) => state.language);
  return resolveLocale(preference, navigator.language);
}

export function useI18n(): I18n {
  const locale = useLocale();
  const t = useCallback((key: MessageKey, params?: Params) => translate(locale, key, params), [locale]);
  const td = useCallback((key: string, fallback: MessageKey, params?: Params) => translateDynamic(locale, key, fallback, params), [locale]);
  return { locale, t, td };
}
