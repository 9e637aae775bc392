// English words of a purchase field's expected format (contract §5.1), shown in a field's error:
// "QQ号码: 5–12 digits, not starting with 0"; merged into messages-en.ts.
// messages-field-format-zh-cn.ts has the same keys.
export const fieldFormatEn = {
  'fieldFormat.expected': '{label}: {format}',
  'fieldFormat.hint': '{label}: not in the expected format (the merchant’s hint: {hint})',
  'fieldFormat.pattern': '{label}: not in the expected format; it must match {pattern}',
  'fieldFormat.digitsRange': '{min}–{max, plural, one {# digit} other {# digits}}',
  'fieldFormat.digitsRangeNoZero': '{min}–{max, plural, one {# digit} other {# digits}}, not starting with 0',
  'fieldFormat.digitsExact': '{count, plural, one {# digit} other {# digits}}',
  'fieldFormat.digitsExactNoZero': '{count, plural, one {# digit} other {# digits}}, not starting with 0',
  'fieldFormat.digitsAtLeast': '{min, plural, one {at least # digit} other {at least # digits}}',
  'fieldFormat.digitsAtLeastNoZero': '{min, plural, one {at least # digit} other {at least # digits}}, not starting with 0',
  'fieldFormat.mobile': 'an 11-digit mainland mobile number starting with 1',
  'fieldFormat.email': 'an email address',
  'fieldFormat.integer': 'a whole number',
} as const;
