// A batch CSV holding bytes that are not valid text (issue 25, contract §13.1): the refusal, the
// buyer's choice to go on with those rows marked, and the row errors. Keys shared with
// messages-batch-bytes-zh-cn.ts.
export const batchBytesEn = {
  'batch.file.invalidBytes': 'This CSV is not valid {encoding} text: unreadable bytes at line {line}, column {column}; {rows, plural, one {# row holds} other {# rows hold}} such bytes.',
  'batchBytes.header': 'This CSV is not valid {encoding} text: its header row holds unreadable bytes (line {line}, column {column}). Save the file again as UTF-8 or GB18030 CSV and choose it again.',
  'batchBytes.hint': 'Nothing was ordered. Save the file again as CSV (UTF-8 or GB18030) in Excel or WPS and choose it again, or go on: those rows are marked as errors and never ordered, and the other rows are checked as usual.',
  'batchBytes.mark': 'Go on with those rows marked as errors',
  'batchBytes.marked': '{rows, plural, one {# row holds} other {# rows hold}} unreadable bytes ({encoding}): marked as errors, never ordered.',
  'batch.error.INVALID_BYTES': 'Unreadable bytes at line {line}, column {column}',
  'batch.error.INVALID_CHARACTERS': 'A character no account holds is in {field} (garbled text “�” or a control character)',
} as const;
