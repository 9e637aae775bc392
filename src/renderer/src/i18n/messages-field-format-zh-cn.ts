// 购买字段的应有格式（contract §5.1），显示在字段的错误里：“QQ号码：5–12 位数字，不以 0 开头”；
// 键与 messages-field-format-en.ts 相同。
import type { fieldFormatEn } from './messages-field-format-en';

export const fieldFormatZhCN: Record<keyof typeof fieldFormatEn, string> = {
  'fieldFormat.expected': '{label}：{format}',
  'fieldFormat.hint': '{label}：格式不正确（商户提示：{hint}）',
  'fieldFormat.pattern': '{label}：格式不正确，应符合 {pattern}',
  'fieldFormat.digitsRange': '{min}–{max} 位数字',
  'fieldFormat.digitsRangeNoZero': '{min}–{max} 位数字，不以 0 开头',
  'fieldFormat.digitsExact': '{count} 位数字',
  'fieldFormat.digitsExactNoZero': '{count} 位数字，不以 0 开头',
  'fieldFormat.digitsAtLeast': '至少 {min} 位数字',
  'fieldFormat.digitsAtLeastNoZero': '至少 {min} 位数字，不以 0 开头',
  'fieldFormat.mobile': '以 1 开头的 11 位手机号',
  'fieldFormat.email': '邮箱地址',
  'fieldFormat.integer': '整数',
};
