// The passphrase-file dialog's validation: the shared export-password rule (the same one
// main applies, password-policy.ts) and the passphrase typed twice. One home, so the dialog and its
// unit test cannot disagree.
import { checkExportPassword, type PasswordVerdict } from '../../../shared/password-policy';

export interface PassphraseFormState {
  readonly verdict: PasswordVerdict;
  /** True once something is typed in the second field that differs from the first. */
  readonly mismatch: boolean;
  /** The rule accepts it and both fields agree: the dialog may send it. */
  readonly ready: boolean;
}

export function passphraseFormState(passphrase: string, confirm: string): PassphraseFormState {
  const verdict = checkExportPassword(passphrase);
  const mismatch = confirm !== '' && confirm !== passphrase;
  return { verdict, mismatch, ready: verdict.ok && confirm === passphrase };
}
