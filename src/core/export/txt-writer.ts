// The TXT export: the codes as a shop imports them, one card per line (contract §16.3): the number alone,
// or `卡号 卡密` with ONE space. UTF-8 without a BOM (an import would take it into the first code), LF after
// every line (a CR left by an importer splitting on LF would end up in a code). A shop's import has no
// escapes, so a code a line cannot carry (line break, control character, a space at its ends or, in a
// pair, inside) is refused with the cards named, never their codes: those go out as XLSX or CSV.
import type { ExportTxtLines } from '../../shared/ipc/views/vault';
import { ExportInputError } from './export-request';

export interface TxtCard {
  /** How the vault and the audit log name the card (merchant order number #seq). */
  readonly label: string;
  readonly cardNo: string;
  readonly cardPassword: string | null;
}

/** An input refusal (the TXT's lines cannot carry these cards): the IPC answers INVALID_INPUT, the CLI exit 2. */
export class TxtCodeError extends ExportInputError {
  constructor(
    readonly count: number,
    readonly labels: readonly string[],
  ) {
    super(
      'txtLines',
      `${count} card${count === 1 ? '' : 's'} (${labels.join(', ')}${count > labels.length ? ', …' : ''}) hold a line break, a control character or a space a one-line-per-card TXT cannot carry; nothing was written: export them as XLSX or CSV`,
    );
  }
}

/** Line breaks of any kind and every other control character (Unicode Cc, plus the line/paragraph separators). */
const NEVER_IN_A_LINE = /[\p{Cc}\u2028\u2029\u0085]/u;
const ANY_SPACE = /\s/u;

/** Why a code cannot be a field of a line, or null when it can. */
function fits(code: string, inPair: boolean): boolean {
  if (code === '' || NEVER_IN_A_LINE.test(code)) return false;
  if (code !== code.trim()) return false;
  return !(inPair && ANY_SPACE.test(code));
}

/** A card without a password is its number alone in either layout (a shop reads an empty password). */
function line(card: TxtCard, lines: ExportTxtLines): string {
  if (lines === 'cardNoPassword' && card.cardPassword !== null && card.cardPassword !== '') return `${card.cardNo} ${card.cardPassword}`;
  return card.cardNo;
}

const NAMED = 5;

/** The file's bytes, or TxtCodeError (nothing built) when a code does not fit a line. */
export function txtBytes(cards: readonly TxtCard[], lines: ExportTxtLines): Uint8Array {
  const pair = lines === 'cardNoPassword';
  const refused = cards.filter((c) => !fits(c.cardNo, pair) || (pair && c.cardPassword !== null && c.cardPassword !== '' && !fits(c.cardPassword, true)));
  if (refused.length > 0) throw new TxtCodeError(refused.length, refused.slice(0, NAMED).map((c) => c.label));
  return new TextEncoder().encode(cards.map((c) => `${line(c, lines)}\n`).join(''));
}
