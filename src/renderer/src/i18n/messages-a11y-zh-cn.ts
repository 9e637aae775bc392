// 读屏软件为可打开的行（lib/openable-row.ts）读出的名称，屏幕上不显示。键与 messages-a11y-en.ts 相同。
import type { a11yEn } from './messages-a11y-en';

export const a11yZhCN: Record<keyof typeof a11yEn, string> = {
  'a11y.openProduct': '查看商品：{name}，{price}',
  'a11y.openOrder': '查看订单：{product}，{time}',
  'a11y.openCase': '查看售后工单：{subject}，{ref}',
  'a11y.chooseVariant': '查看价格走势：{variant}',
};
