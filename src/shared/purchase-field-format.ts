// The expected format of a purchase field, for an error that tells the buyer what to type instead
// of "not in the expected format" (contract §5.1). Derived from the template, never hard-coded: a
// plain digit pattern with its length bounds and first digit (`^[1-9]\d{4,11}$` with maxLength 12 →
// 5–12 digits, not starting with 0), else the type (mobile, email, integer), else the merchant's
// placeholder, else the pattern itself. Each side words it (the form in the buyer's language, core in English).
import type { PurchaseFieldType } from './merchant/known-values';
import { patternShape } from './purchase-pattern-shape';

export type ExpectedFormat =
  | { readonly kind: 'digits'; readonly min: number; readonly max: number | null; readonly leadingZero: boolean }
  | { readonly kind: 'mobile' | 'email' | 'integer' }
  | { readonly kind: 'placeholder'; readonly text: string }
  | { readonly kind: 'pattern'; readonly source: string };

export interface FormatEvidence {
  readonly type: PurchaseFieldType;
  readonly pattern: string | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly placeholder: string | null;
}

/** A digit pattern's length bounds narrowed by minLength/maxLength; null when they contradict. */
function digitsFormat(field: FormatEvidence): ExpectedFormat | null {
  const digits = field.pattern === null ? null : patternShape(field.pattern)?.digits ?? null;
  if (digits === null) return null;
  const min = Math.max(1, digits.min, field.minLength ?? 0);
  const bounds = [digits.max, field.maxLength].filter((n): n is number => n !== null);
  const max = bounds.length === 0 ? null : Math.min(...bounds);
  if (max !== null && max < min) return null;
  return { kind: 'digits', min, max, leadingZero: digits.leadingZero };
}

/** What a valid value looks like, or null when the template says nothing about it (no pattern, free text). */
export function expectedFormat(field: FormatEvidence): ExpectedFormat | null {
  const digits = digitsFormat(field);
  if (digits !== null) return digits;
  if (field.type === 'mobile' || field.type === 'email' || field.type === 'integer') return { kind: field.type };
  const placeholder = field.placeholder?.trim() ?? '';
  if (placeholder !== '') return { kind: 'placeholder', text: placeholder };
  if (field.pattern !== null) return { kind: 'pattern', source: field.pattern };
  return null;
}
