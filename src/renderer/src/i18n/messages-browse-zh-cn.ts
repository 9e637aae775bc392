// 浏览（详情到达之前）的中文文案：仅有列表数据的商品行，以及正在加载详情的商品抽屉（contract §11）。键与
// messages-browse-en.ts 相同。
import type { browseEn } from './messages-browse-en';

export const browseZhCN: Record<keyof typeof browseEn, string> = {
  'browse.row.listNote': '价格来自列表；详情加载中',
  'browse.row.stockUnknown': '库存待确认',
  'browse.row.stockUnknownHint': '这个商品目前只收到了目录列表中的信息。打开它即可立即加载规格和库存。',
  'browse.filter.inStockHint': '同时显示库存尚未确认的可售商品（其详情仍在加载）。',
  'browse.drawer.loading': '正在从商户加载该商品的规格和库存…',
  'browse.drawer.fromList': '目录列表信息：{price} · {variants}',
  'browse.drawer.fromListNoCount': '目录列表信息：{price}',
  'browse.drawer.unreachable': '暂时无法连接商户。连接恢复后将自动加载详情；在此之前显示的是目录列表中的信息。',
  'browse.drawer.unreachableStale': '暂时无法连接商户，以下详情可能不是最新的，连接恢复后会自动更新。',
  'browse.drawer.failed': '商户未能返回该商品的详情。',
  'browse.drawer.retry': '重试',
  'browse.drawer.removed': '商户已不再提供此商品。',
};
