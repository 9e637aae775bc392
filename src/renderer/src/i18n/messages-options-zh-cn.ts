// 选项字段按名称填写（契约 §7.11）：批量粘贴框和批量预览的逐行错误；键与 messages-options-en.ts 相同，由类型检查保证。
import type { OptionsMessageKey } from './messages-options-en';

export const optionsZhCN: Record<OptionsMessageKey, string> = {
  'options.unknown': '{field}「{given}」不是可选项，可选：{labels}',
  'options.ambiguous': '{field}「{given}」可对应{labels}，请填写完整的选项名称',
  'options.pasteLine': '第 {line} 行：{problem}',
  'options.pasteRefused': '{count} 行的选项无法识别，不会填入；改正后请重新粘贴。',
  'options.batchTitle': '{count} 行的选项无法识别，这些行不会下单：',
  'options.batchRows': '第 {rows} 行：{problem}',
  'options.pasteHint': '{fields}可填写列出的选项名称（如「{example}」）或代码；留空则保留已选的。',
};
