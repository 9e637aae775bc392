// A field's expected format (shared/purchase-field-format.ts) in core's English, for the CLI, a
// batch row's error and the logs: "5–12 digits, not starting with 0". The form words the same
// format in the buyer's language from its message tables.
import type { ExpectedFormat } from '../../shared/purchase-field-format';

const digits = (n: number): string => `${n} ${n === 1 ? 'digit' : 'digits'}`;

export function describeFormat(format: ExpectedFormat): string {
  switch (format.kind) {
    case 'digits': {
      const length = format.max === null ? `at least ${digits(format.min)}` : format.max === format.min ? digits(format.min) : `${format.min}–${format.max} digits`;
      return format.leadingZero ? length : `${length}, not starting with 0`;
    }
    case 'mobile':
      return 'a mainland mobile number of 11 digits starting with 1';
    case 'email':
      return 'an email address';
    case 'integer':
      return 'a whole number';
    case 'placeholder':
      return `the format the merchant describes as "${format.text}"`;
    case 'pattern':
      return `a value matching the merchant's pattern ${format.source}`;
  }
}
