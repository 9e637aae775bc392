// How a recharged account is shown where it is not the point (order lists): enough to recognise it
// (138****8000), never enough to read it off a screen. The full values appear only in the detail.

/** One value: the first 3 and last 4 characters of a long one, less of a short one. */
export function maskAccountValue(value: string): string {
  const chars = [...value];
  if (chars.length >= 8) return `${chars.slice(0, 3).join('')}****${chars.slice(-4).join('')}`;
  if (chars.length >= 4) return `${chars[0] ?? ''}***${chars.at(-1) ?? ''}`;
  return '****';
}

/** The first group's values masked, joined by a space, plus ` +N` for the other groups; null without entries. */
export function maskRechargedAccount(entries: readonly Readonly<Record<string, string>>[] | null): string | null {
  const first = entries?.[0];
  if (entries === null || first === undefined) return null;
  const masked = Object.values(first).filter((v) => v !== '').map(maskAccountValue).join(' ');
  return entries.length > 1 ? `${masked} +${entries.length - 1}` : masked;
}
