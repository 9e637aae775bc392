// The merchant-name field of the add and rename dialogs: the shared rules (shared/profile-name.ts)
// while typing, plus "another merchant has this name" against the list the renderer holds; core
// checks again and its refusal (INVALID_INPUT on `name`) is worded the same way.
import { IpcCallError } from '../../../shared/ipc/ipc-result';
import type { ProfileView } from '../../../shared/ipc/views/profiles';
import { profileNameKey, profileNameProblem, type ProfileNameProblem } from '../../../shared/profile-name';

export type NameFieldProblem = ProfileNameProblem | 'taken';

const PROBLEMS: readonly NameFieldProblem[] = ['empty', 'tooLong', 'badCharacters', 'taken'];

/** What is wrong with `raw` as the name of a profile (`renaming` keeps its own name allowed). */
export function nameFieldProblem(raw: string, profiles: readonly ProfileView[], renaming: string | null = null): NameFieldProblem | null {
  const problem = profileNameProblem(raw);
  if (problem !== null) return problem;
  const key = profileNameKey(raw);
  return profiles.some((profile) => profile.id !== renaming && profileNameKey(profile.name) === key) ? 'taken' : null;
}

/** Core's refusal of a name, as one of the same problems; null for any other failure. */
export function nameProblemOfError(error: unknown): NameFieldProblem | null {
  if (!(error instanceof IpcCallError) || error.error.code !== 'INVALID_INPUT') return null;
  const said = error.error.fields?.find((field) => field.path === 'name')?.message;
  return PROBLEMS.find((problem) => problem === said) ?? null;
}
