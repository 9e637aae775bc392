// Times cross the boundary as Unix seconds; they are shown in the buyer's locale and time zone.
export function formatSeconds(seconds: number | null | undefined, locale: string): string {
  if (seconds === null || seconds === undefined) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

export function formatShortDate(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric' }).format(new Date(seconds * 1000));
}
