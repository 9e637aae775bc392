// A wait the merchant asked for, said as time left from now and recomputed on every tick: never a
// clock time that may already have passed on screen ("retrying at 10:29:55" read at 10:30:16). Once
// the time has come there is no time left to say, and the caller says what happens now (issue 24).
import type { MessageKey } from '../i18n/messages-en';
import type { Params } from '../i18n/translate';

/** Up to this many seconds are counted down one by one; longer waits in whole minutes. */
const SECONDS_SHOWN_UP_TO = 90;

/** "12 s" / "3 min" until `untilMs` seen at `nowMs` (Unix ms of this computer's clock); null once it has come. */
export function timeLeft(untilMs: number, nowMs: number, t: (key: MessageKey, params?: Params) => string): string | null {
  const leftS = Math.ceil((untilMs - nowMs) / 1000);
  if (leftS <= 0) return null;
  if (leftS <= SECONDS_SHOWN_UP_TO) return t('wait.seconds', { seconds: leftS });
  return t('wait.minutes', { minutes: Math.ceil(leftS / 60) });
}
