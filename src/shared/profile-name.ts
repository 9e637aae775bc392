// What a merchant profile may be called (issue 17, contract §15.1): the buyer's own label for one
// merchant connection, shown in the header's switcher, in every cross-profile list's merchant column,
// in notifications and in export file names. Both sides check it: the dialog while typing, core before
// storing. Unique among profiles regardless of case, so "Cards" and "cards" are never two merchants.

export const PROFILE_NAME_MAX = 40;

export type ProfileNameProblem = 'empty' | 'tooLong' | 'badCharacters';

/** Control characters and path separators would break file names and the CLI's --profile. */
const hasBadCharacter = (name: string): boolean => [...name].some((char) => char === '/' || char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

export function cleanProfileName(raw: string): string {
  return raw.normalize('NFC').trim().replace(/\s+/g, ' ');
}

export function profileNameProblem(raw: string): ProfileNameProblem | null {
  const name = cleanProfileName(raw);
  if (name === '') return 'empty';
  if ([...name].length > PROFILE_NAME_MAX) return 'tooLong';
  if (hasBadCharacter(name)) return 'badCharacters';
  return null;
}

/** The key two names are compared by: the same for "Cards" and "cards ". */
export function profileNameKey(raw: string): string {
  return cleanProfileName(raw).toLocaleLowerCase('en');
}
