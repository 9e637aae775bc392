// 商户多次处理失败的订单（HTTP 500，契约 §7.12）：等待买家重试。键与 messages-server-failures-en.ts 相同。
import type { serverFailuresEn } from './messages-server-failures-en';

export const serverFailuresZhCN: Record<keyof typeof serverFailuresEn, string> = {
  'intent.merchant_failing': '等待中：商户多次处理失败',
  'serverFailing.body': '商户已 {count} 次返回服务器错误（HTTP 500）。订单已保留，在您点击“重试”之前不会再发送。重试时会先向商户查询是否已有此订单，绝不会重复扣款。',
  'serverFailing.requestIds': '商户的请求编号（可提供给商户客服）：',
  'serverFailing.retry': '重试',
};
