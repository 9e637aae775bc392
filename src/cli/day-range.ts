// `--from D --to D` as whole local days (YYYY-MM-DD, both days included, in the time zone of the
// process, as the vault screen sends whole local days): the Unix-second range [start of D_from,
// start of the day after D_to). The day rules are core's (books/local-days.ts).
import { LocalDayError, nextDay, processTimeZone, startOfLocalDay } from '../core';
import { UsageError } from './cli-args';

function dayStart(text: string, option: string): number {
  try {
    return startOfLocalDay(processTimeZone(), text);
  } catch (error) {
    if (error instanceof LocalDayError) throw new UsageError(`--${option} takes a day as YYYY-MM-DD (got "${text}")`);
    throw error;
  }
}

export function localDayRange(fromText: string, toText: string): { from: number; to: number } {
  const from = dayStart(fromText, 'from');
  const to = dayStart(toText, 'to');
  if (to < from) throw new UsageError('--to is before --from');
  const after = startOfLocalDay(processTimeZone(), nextDay(toText));
  return { from: Math.floor(from / 1000), to: Math.floor(after / 1000) };
}
