// Looks a label up in the table of the locale and fills in `{name}` placeholders. Pure, so the
// tables can be checked without React.
//
// Counts follow the locale's plural rules (Intl.PluralRules), written in the ICU shape translators
// know: `{count, plural, =0 {no orders} one {# order} other {# orders}}`. `#` is the count in the
// locale's digits; an exact `=N` branch wins over the category; `other` is required. Chinese needs
// only `other`, English `one`/`other`: the rules, not the code, decide which branch is read.
import { en, type MessageKey } from './messages-en';
import { zhCN } from './messages-zh-cn';
import type { Locale } from './locale';

export type Params = Readonly<Record<string, string | number>>;

const TABLES: Record<Locale, Record<MessageKey, string>> = { 'zh-CN': zhCN, en };

/** `{name, plural, branches}` where branches are `selector {text}` pairs (text without braces). */
const PLURAL = /\{(\w+), plural,((?:\s*=?\w+\s*\{[^{}]*\})+)\s*\}/g;
const BRANCH = /(=?\w+)\s*\{([^{}]*)\}/g;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

function pluralBranch(locale: Locale, branches: string, count: number): string | null {
  const options = new Map<string, string>();
  for (const match of branches.matchAll(BRANCH)) options.set(match[1] ?? '', match[2] ?? '');
  const chosen = options.get(`=${count}`) ?? options.get(new Intl.PluralRules(locale).select(count)) ?? options.get('other');
  return chosen === undefined ? null : chosen.replace(/#/g, count.toLocaleString(locale));
}

/** Fills plural blocks and placeholders of one message. */
export function formatMessage(locale: Locale, text: string, params?: Params): string {
  if (params === undefined) return text;
  const counted = text.replace(PLURAL, (whole, name: string, branches: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (typeof value !== 'number') return whole;
    return pluralBranch(locale, branches, value) ?? whole;
  });
  return counted.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

export function translate(locale: Locale, key: MessageKey, params?: Params): string {
  return formatMessage(locale, TABLES[locale][key], params);
}

/** For keys built at run time (`orderState.${state}`): falls back to the given key when missing. */
export function translateDynamic(locale: Locale, key: string, fallback: MessageKey, params?: Params): string {
  return translate(locale, isMessageKey(key) ? key : fallback, params);
}
