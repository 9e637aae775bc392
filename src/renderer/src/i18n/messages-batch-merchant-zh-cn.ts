// 备选规则把批量订单转到另一个商户时的文字（议题 24：预览标出这些行，确认页按商户汇总并需买家同意，进度写明商户）。
// 键与 messages-batch-merchant-en.ts 相同。
import type { batchMerchantEn } from './messages-batch-merchant-en';

export const batchMerchantZhCN: Record<keyof typeof batchMerchantEn, string> = {
  'batchMerchant.notice.title': '此批次将在{to}下单并扣款，而不是{from}',
  'batchMerchant.notice.reason.outOfStock': '{from}已缺货。',
  'batchMerchant.notice.reason.unavailable': '{from}目前不出售此商品。',
  'batchMerchant.notice.reason.notEnoughStock': '{from}的库存不够这批订单。',
  'batchMerchant.notice.reason.aboveLimit': '{from}的单价 {price} 高于您设定的上限 {limit}。',
  'batchMerchant.notice.rule': '按此商品链接的备选规则，改为在{to}购买「{product}」，单价 {price}（上限 {limit}）。',
  'batchMerchant.col': '商户',
  'batchMerchant.rowPrice': '单价 {price}',
  'batchMerchant.totalsTitle': '各商户扣款',
  'batchMerchant.colOrders': '订单数',
  'batchMerchant.colUnits': '数量',
  'batchMerchant.colUnitPrice': '单价',
  'batchMerchant.colTotal': '合计',
  'batchMerchant.fallbackTag': '备选',
  'batchMerchant.notCharged': '不扣款',
  'batchMerchant.agree': '我同意向{to}支付 {total}（{from}不扣款）。',
  'batchMerchant.agreeNeeded': '勾选上方选项后才能向{to}付款。',
  'batchMerchant.place': '向{to}付款并发送 {count, plural, other {# 笔订单}}',
  'batchMerchant.statusNotice': '这些订单在{to}下单并扣款（备选规则；{from}不扣款）。订单号是{to}自己的订单号。',
  'batchMerchant.charged': '{merchant}已扣款：{amount}',
};
