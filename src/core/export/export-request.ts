// Checks an export request before anything is read or decrypted: what the contract's schema cannot
// say (the strength rule shared with the screen, the two typings matching, the explicit acceptance
// a plain CSV needs). Refusals name the field and the rule, never the password.
import type { CardSelection, ExportFormat, ExportInput, ExportLanguage } from '../../shared/ipc/views/vault';
import { checkExportPassword, PASSWORD_PROBLEM_TEXT } from '../../shared/password-policy';

export type ExportInputField = 'password' | 'passwordConfirm' | 'acceptPlainText' | 'selection';

export class ExportInputError extends Error {
  override readonly name = 'ExportInputError';
  constructor(
    readonly field: ExportInputField,
    message: string,
  ) {
    super(message);
  }
}

export interface ExportRequest {
  readonly selection: CardSelection;
  readonly format: ExportFormat;
  readonly language: ExportLanguage;
  /** null only for the plain CSV. */
  readonly password: string | null;
}

export function checkExportInput(input: ExportInput): ExportRequest {
  const language = input.language ?? 'zh-CN';
  if (input.format === 'csv') {
    if (input.acceptPlainText !== true) {
      throw new ExportInputError('acceptPlainText', 'a plain CSV holds the card codes unencrypted: anyone with the file can use them; confirm that risk, or choose the XLSX or ZIP format with a password');
    }
    // A password here would suggest protection the file does not have.
    if ((input.password ?? '') !== '' || (input.passwordConfirm ?? '') !== '') {
      throw new ExportInputError('password', 'a plain CSV is not encrypted: a password is not used; choose the XLSX or ZIP format to protect the file');
    }
    return { selection: input.selection, format: 'csv', language, password: null };
  }
  const password = input.password ?? '';
  const verdict = checkExportPassword(password);
  if (verdict.problem !== null) throw new ExportInputError('password', PASSWORD_PROBLEM_TEXT[verdict.problem]);
  if (input.passwordConfirm !== password) throw new ExportInputError('passwordConfirm', 'the two passwords typed are not the same');
  return { selection: input.selection, format: input.format, language, password };
}
