// Duplicates in a batch (issue 24, contract §13.8): identical rows and a file already placed. Keys
// shared with messages-batch-dupes-zh-cn.ts.
export const batchDupesEn = {
  'batchDup.placedBeforeTitle': 'This file was already ordered',
  'batchDup.placedBefore.sameFile': 'The same file was placed on {time} as batch {batchId} ({fileName}).',
  'batchDup.placedBefore.sameRows': 'The same rows for this product were placed on {time} as batch {batchId} ({fileName}).',
  'batchDup.placedBeforeOk': 'I have checked: order this file again',
  'batchDup.rowsTitle': '{count, plural, one {# row repeats} other {# rows repeat}} an earlier row of this file',
  'batchDup.rowsHint': 'Choose for each one: order it as well, or skip it. You can go on once every one is decided.',
  'batchDup.keepAll': 'Keep these duplicates',
  'batchDup.skipAll': 'Skip these duplicates',
  'batchDup.sameAs': 'Same as row {row}',
  'batchDup.keep': 'Order',
  'batchDup.skip': 'Skip',
  'batchDup.undecided': '{count, plural, one {# duplicate row} other {# duplicate rows}} still to decide',
  'batchDup.confirmAgainNeeded': 'Tick the box above to go on.',
  'batchDup.confirmKept': 'Duplicate rows ordered as well',
  'batchDup.confirmSkipped': 'Duplicate rows skipped',
  'batchDup.rowList': 'Rows {rows}',
  'batchDup.confirmPlacedBefore': 'Ordered before',
} as const;
