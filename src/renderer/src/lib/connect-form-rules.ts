// The connect form's checks, worded: the shared rules (shared/connection-input.ts) core applies
// again, so a mistake is named before anything is sent and in the same terms core would use.
import { addressProblem, caCertProblem, MAX_CA_CERT_PEM_CHARS, type ConnectionInputProblem } from '../../../shared/connection-input';

/** The address's problem, or null when it may be tried (empty is the "required" rule's business). */
export function addressFieldProblem(value: string | undefined): ConnectionInputProblem | null {
  if (value === undefined || value.trim() === '') return null;
  return addressProblem(value);
}

/** The CA field's problem; an empty field means "no CA of our own" and is fine. */
export function caCertFieldProblem(value: string | undefined): ConnectionInputProblem | null {
  if (value === undefined) return null;
  if (value.length > MAX_CA_CERT_PEM_CHARS) return 'caCertTooLarge';
  if (value.trim() === '') return null;
  return caCertProblem(value);
}

/** What is sent as caCertPem: null for an empty field. */
export function caCertToSend(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value.trim() + '\n';
}
