// `--from D --to D` as whole local days (YYYY-MM-DD, both days included, in the time zone of the
// process, as the vault screen sends whole local days): the Unix-second range [start of D_from,
// start of the day after D_to).
import { UsageError } from './cli-args';

function dayStart(text: string, option: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = match === null ? null : new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // The Date must be the same day back: 2026-02-30 is refused, not rolled into March.
  if (match === null || date === null || date.getFullYear() !== Number(match[1]) || date.getMonth() !== Number(match[2]) - 1 || date.getDate() !== Number(match[3])) {
    throw new UsageError(`--${option} takes a day as YYYY-MM-DD (got "${text}")`);
  }
  return date;
}

export function localDayRange(fromText: string, toText: string): { from: number; to: number } {
  const from = dayStart(fromText, 'from');
  const to = dayStart(toText, 'to');
  if (to < from) throw new UsageError('--to is before --from');
  const after = new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1);
  return { from: Math.floor(from.getTime() / 1000), to: Math.floor(after.getTime() / 1000) };
}
