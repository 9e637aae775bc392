// "Paste many accounts" into option fields (contract §7.11 "Filled by label"): each pasted cell of a
// select field names its option by label or code (shared/purchase-option-match.ts) and becomes the
// code the form holds; an empty cell keeps what the buyer had already chosen in that unit; a line
// whose cell names no option (or several) is refused with its problem and is not put in the form.
import { matchOption } from '../../../shared/purchase-option-match';
import { emptyGroup, type EntryGroup, type FieldModel } from './template-form';

export interface PastedOptionProblem {
  readonly fieldRef: string;
  /** The field's label, as the form shows it. */
  readonly field: string;
  readonly given: string;
  readonly reason: 'unknown' | 'ambiguous';
  /** unknown: every option's label; ambiguous: the labels it could be. */
  readonly labels: readonly string[];
}

export interface RefusedLine {
  /** 1-based among the pasted lines that hold something (blank lines are skipped). */
  readonly line: number;
  readonly problems: readonly PastedOptionProblem[];
}

export interface PastedReading {
  /** The lines to put in the form: select cells as codes, an empty select cell as '' (kept on apply). */
  readonly groups: readonly EntryGroup[];
  readonly refused: readonly RefusedLine[];
}

const hasOptions = (field: FieldModel): boolean => field.type === 'select' && field.options.length > 0;

/** The pasted rows (cells in the order of the fields) read against the fields. */
export function readPastedRows(rows: readonly (readonly string[])[], fields: readonly FieldModel[]): PastedReading {
  const groups: EntryGroup[] = [];
  const refused: RefusedLine[] = [];
  rows.forEach((cells, index) => {
    const group = emptyGroup(fields);
    const problems: PastedOptionProblem[] = [];
    fields.forEach((field, column) => {
      const cell = cells[column] ?? '';
      if (!hasOptions(field)) {
        group[field.fieldRef] = cell;
        return;
      }
      const match = matchOption(field.options, cell);
      if (match.kind === 'matched') group[field.fieldRef] = match.value;
      else if (match.kind === 'unknown') problems.push({ fieldRef: field.fieldRef, field: field.label, given: match.given, reason: 'unknown', labels: field.options.map((o) => o.label || o.value) });
      else if (match.kind === 'ambiguous') problems.push({ fieldRef: field.fieldRef, field: field.label, given: match.given, reason: 'ambiguous', labels: match.labels });
    });
    if (problems.length > 0) refused.push({ line: index + 1, problems });
    else groups.push(group);
  });
  return { groups, refused };
}

/**
 * The groups to put in the form: the pasted ones, where a select cell left empty takes the option the
 * buyer had chosen in the same unit (`shown`, the groups on screen). Typed fields are as pasted: an
 * account's role name never carries over to another account.
 */
export function keepChosenOptions(pasted: readonly EntryGroup[], shown: readonly EntryGroup[], fields: readonly FieldModel[]): EntryGroup[] {
  const selects = fields.filter(hasOptions);
  return pasted.map((group, index) => {
    const kept: EntryGroup = { ...group };
    for (const field of selects) {
      const chosen = shown[index]?.[field.fieldRef] ?? '';
      if ((kept[field.fieldRef] ?? '') === '' && chosen !== '') kept[field.fieldRef] = chosen;
    }
    return kept;
  });
}
