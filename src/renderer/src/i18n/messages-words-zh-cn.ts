// 问题 26 的简体中文（买家读到的措辞）：时区以名称和 UTC 偏移显示，证书主体标明为技术信息；
// 键与 messages-words-en.ts 相同，由类型检查保证。
import type { WordsMessageKey } from './messages-words-en';

export const wordsZhCN: Record<WordsMessageKey, string> = {
  'dashboard.timeZoneValue': '{name}（{offset}）',
  'dashboard.timeZoneId': '时区标识',
  'settings.caCertSubject': '证书主体（技术信息）：',
};
