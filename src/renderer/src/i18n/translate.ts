// Looks a label up in the table of the locale and fills in `{name}` placeholders. Pure, so the
// tables can be checked without React.
import { en, type MessageKey } from './messages-en';
import { zhCN } from './messages-zh-cn';
import type { Locale } from './locale';

export type Params = Readonly<Record<string, string | number>>;

const TABLES: Record<Locale, Record<MessageKey, string>> = { 'zh-CN': zhCN, en };

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

export function translate(locale: Locale, key: MessageKey, params?: Params): string {
  const text = TABLES[locale][key];
  if (params === undefined) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** For keys built at run time (`orderState.${state}`): falls back to the given key when missing. */
export function translateDynamic(locale: Locale, key: string, fallback: MessageKey, params?: Params): string {
  return translate(locale, isMessageKey(key) ? key : fallback, params);
}
