// 第 26 号议题版面修正新增的简体中文；键与 messages-layout-en.ts 相同，由类型检查保证。
import type { layoutEn } from './messages-layout-en';

export const layoutZhCN: Record<keyof typeof layoutEn, string> = {
  'withdraw.outcome.withdrawnDetail': '订单未发送给商户，也没有扣款。',
  'detail.notSent': '未发送给商户',
  'action.cancelConfirmNoAmount': '取消订单并退款到余额？',
  'action.cancelKeep': '不取消',
};
