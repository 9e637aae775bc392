// 订单退款在列表和详情中的说法（契约 §7.3：处理中、成功、被拒；未知状态原样显示），审计日志中导出文件的去向，
// 以及批量下单失败行的说明。键与 messages-refunds-en.ts 相同。
import type { refundsEn } from './messages-refunds-en';

export const refundsZhCN: Record<keyof typeof refundsEn, string> = {
  'refund.tag.pending': '退款处理中 {amount}',
  'refund.tag.refunded': '已退款 {amount}',
  'refund.tag.partlyRefunded': '部分退款 {amount}（共 {total}）',
  'refund.tag.unknown': '退款状态未知（{raw}）',
  'refund.list.title': '退款记录',
  'refund.list.reason': '原因：{reason}',
  'refund.list.merchantNote': '商户说明：{note}',
  'refund.list.refused': '商户拒绝了此申请：{problem}',
  'audit.detail.downloaded': '已在浏览器中下载（{file}）',
};
