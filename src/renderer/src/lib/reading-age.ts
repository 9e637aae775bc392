// How old a reading from the merchant is, in words ("12 秒前"), so that a figure shown while it is read
// again (or after it could not be) is never passed off as current (issue 24 point 6). Pure: the clock
// is the caller's (use-now-seconds.ts ticks it on screen).
import type { MessageKey } from '../i18n/messages-en';

export type Translate = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

/** Whole seconds since `readAtS`; a reading stamped a little ahead of this clock is 0 s old. */
export function ageSeconds(readAtS: number, nowS: number): number {
  return Math.max(0, Math.floor(nowS - readAtS));
}

export function ageWords(t: Translate, readAtS: number, nowS: number): string {
  const age = ageSeconds(readAtS, nowS);
  if (age < 5) return t('fresh.age.now');
  if (age < 60) return t('fresh.age.seconds', { n: age });
  if (age < 3600) return t('fresh.age.minutes', { n: Math.floor(age / 60) });
  if (age < 86_400) return t('fresh.age.hours', { n: Math.floor(age / 3600) });
  return t('fresh.age.days', { n: Math.floor(age / 86_400) });
}
