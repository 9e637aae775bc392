// 同步栏在第 15 号议题之后的阶段用语：商品列表（分页，需要时含分类）以及说明范围的下单表单阶段；
// 合并进 messages-zh-cn.ts，键与 messages-sync-scope-en.ts 相同。
import type { syncScopeEn } from './messages-sync-scope-en';

export const syncScopeZhCN: Record<keyof typeof syncScopeEn, string> = {
  'sync.phase.list': '商品列表',
  'sync.count.list': '{done} / {total, plural, other {# 页}}',
  'sync.phase.templatesWanted': '下单表单（{count, plural, other {# 个关注或下过单的规格}}）',
  'sync.phase.templatesAll': '下单表单（全部规格）',
};
