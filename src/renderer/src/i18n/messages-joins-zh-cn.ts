// 显示的值如何连在一起：标签与值、正文与备注、列举、分句。中文用全角标点（：（）、；），代码从不自带标点；
// 键与 messages-joins-en.ts 相同，由类型检查保证。
import type { JoinsMessageKey } from './messages-joins-en';

export const joinsZhCN: Record<JoinsMessageKey, string> = {
  'join.labelValue': '{label}：{value}',
  'join.note': '{text}（{note}）',
  'join.list': '、',
  'join.clauses': '；',
};
