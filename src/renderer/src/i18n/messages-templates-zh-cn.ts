// 按需获取下单表单（契约 §7.10）：商户连不上时"等待下单表单"的订单，以及下单对话框的离线步骤。
// 键与 messages-templates-en.ts 相同。
import { INTENT_STATUS_WORDS } from '../../../shared/status-words';
import type { templatesEn } from './messages-templates-en';

export const templatesZhCN: Record<keyof typeof templatesEn, string> = {
  'intent.needs_template': INTENT_STATUS_WORDS['zh-CN'].needs_template,
  'orderTemplate.offlineTitle': '暂时连不上商户，且尚未获取该商品的下单表单',
  'orderTemplate.offlineCard': '您可以先把订单排队。商户恢复后，应用会先获取下单表单并核对购买数量，然后才发送订单。',
  'orderTemplate.offlineTopup': '您可以先把订单排队。商户恢复后，应用会获取下单表单，并在发送前请您填写充值信息。',
  'orderTemplate.units': '数量',
  'orderTemplate.unitPrice': '单价',
  'orderTemplate.total': '合计（最多）',
  'orderTemplate.priceCap': '实付单价绝不会高于此价：如果商户涨价，订单会暂停并等您确认。',
  'orderTemplate.noPrice': '该商品的价格尚未知晓，暂时无法排队。请在商户恢复后再试。',
  'orderTemplate.queue': '排队，等待下单表单',
  'orderTemplate.waiting': '暂时连不上商户。订单已保存，待获取并核对下单表单后才会发送；在此之前不会发送，也不会扣款。',
  'orderTemplate.formArrivedTitle': '请补全下单信息',
  'orderTemplate.formArrived': '下单表单已获取，需要补充离线时无法填写的信息。请填写并确认后发送订单。',
};
