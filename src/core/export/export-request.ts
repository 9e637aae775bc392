// Checks an export request before anything is read or decrypted: what the contract's schema cannot
// say (the strength rule shared with the screen, the two typings matching, the explicit acceptance
// a plain CSV or TXT needs, the TXT's lines). Refusals name the field and the rule, never the password.
import type { CardSelection, ExportFormat, ExportInput, ExportLanguage, ExportTxtLines } from '../../shared/ipc/views/vault';
import { checkExportPassword, PASSWORD_PROBLEM_TEXT } from '../../shared/password-policy';

export type ExportInputField = 'password' | 'passwordConfirm' | 'acceptPlainText' | 'selection' | 'txtLines';

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
  /** null only for the plain CSV and TXT. */
  readonly password: string | null;
  /** A TXT (plain, or the ZIP's entry): what each line holds; null: the table (XLSX, CSV, the ZIP's CSV). */
  readonly txtLines: ExportTxtLines | null;
}

/** The TXT's lines where they belong (txt: required; zip: optional), refused where they would be ignored. */
function txtLinesOf(input: ExportInput): ExportTxtLines | null {
  const lines = input.txtLines ?? null;
  if (input.format === 'txt' && lines === null) throw new ExportInputError('txtLines', 'a TXT export needs txtLines: cardNo (one card number per line) or cardNoPassword ("卡号 卡密" per line)');
  if ((input.format === 'xlsx' || input.format === 'csv') && lines !== null) throw new ExportInputError('txtLines', `txtLines belongs to a TXT (format txt, or zip to encrypt it), not to ${input.format}`);
  return lines;
}

export function checkExportInput(input: ExportInput): ExportRequest {
  const language = input.language ?? 'zh-CN';
  const txtLines = txtLinesOf(input);
  if (input.format === 'csv' || input.format === 'txt') {
    const kind = input.format.toUpperCase();
    if (input.acceptPlainText !== true) {
      throw new ExportInputError('acceptPlainText', `a plain ${kind} holds the card codes unencrypted: anyone with the file can use them; confirm that risk, or choose the XLSX or ZIP format with a password`);
    }
    // A password here would suggest protection the file does not have.
    if ((input.password ?? '') !== '' || (input.passwordConfirm ?? '') !== '') {
      throw new ExportInputError('password', `a plain ${kind} is not encrypted: a password is not used; choose the XLSX or ZIP format to protect the file`);
    }
    return { selection: input.selection, format: input.format, language, password: null, txtLines };
  }
  const password = input.password ?? '';
  const verdict = checkExportPassword(password);
  if (verdict.problem !== null) throw new ExportInputError('password', PASSWORD_PROBLEM_TEXT[verdict.problem]);
  if (input.passwordConfirm !== password) throw new ExportInputError('passwordConfirm', 'the two passwords typed are not the same');
  return { selection: input.selection, format: input.format, language, password, txtLines };
}
