// Case and message input checked against contract §9 before anything is written or sent, with the
// shared rules the renderer's forms use too. Returns what is sent: trimmed, blank image rows dropped.
import { checkCaseDraft, checkMessageDraft, type CaseDraft, type MessageDraft, type NormalisedCase, type NormalisedMessage } from '../../shared/aftersale-rules';
import { CaseValidationError } from './aftersale-errors';

export function validateCase(draft: CaseDraft): NormalisedCase {
  const checked = checkCaseDraft(draft);
  if (!checked.ok) throw new CaseValidationError('case', checked.problems);
  return checked.value;
}

export function validateMessage(draft: MessageDraft): NormalisedMessage {
  const checked = checkMessageDraft(draft);
  if (!checked.ok) throw new CaseValidationError('message', checked.problems);
  return checked.value;
}
