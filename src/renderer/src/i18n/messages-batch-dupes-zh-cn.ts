// 批次中的重复（议题 24，契约 §13.8）：完全相同的行，以及已经下过单的文件。
// 键与 messages-batch-dupes-en.ts 相同。
import type { batchDupesEn } from './messages-batch-dupes-en';

export const batchDupesZhCN: Record<keyof typeof batchDupesEn, string> = {
  'batchDup.placedBeforeTitle': '此文件已经下过单',
  'batchDup.placedBefore.sameFile': '同一文件已于 {time} 下单，批次 {batchId}（{fileName}）。',
  'batchDup.placedBefore.sameRows': '与此文件内容相同的各行已于 {time} 为该商品下单，批次 {batchId}（{fileName}）。',
  'batchDup.placedBeforeOk': '我已核对，仍要再次下单',
  'batchDup.rowsTitle': '{count, plural, other {# 行}}与文件中前面的行完全相同',
  'batchDup.rowsHint': '请逐行选择：也下单，或跳过。每一行都选择后才能继续。',
  'batchDup.keepAll': '保留这些重复行',
  'batchDup.skipAll': '跳过这些重复行',
  'batchDup.sameAs': '与第 {row} 行相同',
  'batchDup.keep': '也下单',
  'batchDup.skip': '跳过',
  'batchDup.undecided': '还有 {count, plural, other {# 行}}重复行待选择',
  'batchDup.confirmAgainNeeded': '勾选“我已核对，仍要再次下单”后才能继续。',
  'batchDup.confirmKept': '仍下单的重复行',
  'batchDup.confirmSkipped': '跳过的重复行',
  'batchDup.rowList': '第 {rows} 行',
  'batchDup.confirmPlacedBefore': '此前已下单',
};
