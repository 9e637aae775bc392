// The after-sales forms' inline checks: the same rules core applies (shared/aftersale-rules.ts), per
// form row, in the buyer's words. Blank image rows are ignored, as core ignores them.
import { AFTERSALE_LIMITS } from '../../../shared/ipc/views/aftersales';
import { imageUrlProblem, type CaseFieldProblem, type CaseRuleCode } from '../../../shared/aftersale-rules';
import type { Words } from './case-status';

export function ruleText(rule: CaseRuleCode, path: string, { td }: Pick<Words, 'td'>): string {
  const max = path === 'description' ? AFTERSALE_LIMITS.descriptionMax : path === 'text' ? AFTERSALE_LIMITS.messageTextMax : AFTERSALE_LIMITS.imagesMax;
  return td(`aftersale.rule.${rule}`, 'problem.invalidInput.body', { max });
}

/** Problems of one image row (null: fine or blank). */
export function imageRowProblem(row: string): CaseRuleCode | null {
  const url = row.trim();
  return url === '' ? null : imageUrlProblem(url);
}

/** The first problem of a field among a draft check's problems. */
export function problemAt(problems: readonly CaseFieldProblem[], path: string): CaseFieldProblem | null {
  return problems.find((p) => p.path === path) ?? null;
}
