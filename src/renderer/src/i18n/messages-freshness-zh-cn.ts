// 金额读数新鲜度（问题 24 第 6 点）的中文：余额和商品读数的时间，应用重新读取时显示，读取失败时说明。键与 messages-freshness-en.ts 相同。
import type { FreshnessMessageKey } from './messages-freshness-en';

export const freshnessZhCN: Record<FreshnessMessageKey, string> = {
  'fresh.age.now': '刚刚',
  'fresh.age.seconds': '{n} 秒前',
  'fresh.age.minutes': '{n} 分钟前',
  'fresh.age.hours': '{n} 小时前',
  'fresh.age.days': '{n} 天前',
  'fresh.balance.readAt': '{age}从商户读取',
  'fresh.balance.refreshing': '{age}读取，正在向商户核实…',
  'fresh.balance.notRenewed': '{age}读取，现在无法核实',
  'fresh.product.refreshing': '正在向商户核实价格和库存…当前显示的是{age}读取的数据。',
  'fresh.product.notRenewed': '价格和库存为{age}读取：现在无法询问商户。',
};
