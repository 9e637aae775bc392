// How a recharged account is shown where it is not the point (order lists): enough to recognise it
// (138****8000), never enough to read it off a screen. The full values appear only in the detail. What
// is masked is what the buyer typed (an account, a phone number, a UID); a value picked from the
// template's options (a zone, a server) is one of a list the merchant publishes and names no account: it
// is left out of the mask and shown by its label (contract §7.11).

/** One value: the first 3 and last 4 characters of a long one, less of a short one. */
export function maskAccountValue(value: string): string {
  const chars = [...value];
  if (chars.length >= 8) return `${chars.slice(0, 3).join('')}****${chars.slice(-4).join('')}`;
  if (chars.length >= 4) return `${chars[0] ?? ''}***${chars.at(-1) ?? ''}`;
  return '****';
}

/**
 * The first group's typed values masked, joined by a space, plus ` +N` for the other groups; the fields
 * `picked` says were picked from options are left out. Null without entries, or when nothing is left.
 */
export function maskRechargedAccount(entries: readonly Readonly<Record<string, string>>[] | null, picked: (fieldRef: string) => boolean = () => false): string | null {
  const first = entries?.[0];
  if (entries === null || first === undefined) return null;
  const masked = Object.entries(first)
    .filter(([fieldRef, value]) => value !== '' && !picked(fieldRef))
    .map(([, value]) => maskAccountValue(value));
  if (entries.length > 1) masked.push(`+${entries.length - 1}`);
  return masked.length === 0 ? null : masked.join(' ');
}
