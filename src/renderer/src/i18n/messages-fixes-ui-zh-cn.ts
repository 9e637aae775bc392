// fixes-ui 分支的简体中文（目录价格区间、网页版导出下载）；键与 messages-fixes-ui-en.ts 相同，由类型检查保证。
import type { FixesUiMessageKey } from './messages-fixes-ui-en';

export const fixesUiZhCN: Record<FixesUiMessageKey, string> = {
  'catalog.priceRangeInverted': '最低价高于最高价。请调换或修改这两个价格后再查看商品。',

  'export.downloaded': '已下载 {count} 张卡密',
  'export.downloadedFile': '浏览器保存的文件名：',
  'export.downloadHint': '文件只交给了你的浏览器，主机上不保留任何副本。如果下载没有开始，请重新导出。',
};
