// The zh-CN punctuation lint: Chinese text uses full-width marks (：，；（）！？), in the message tables,
// in every Chinese word table of core, shared and main, and where the renderer's code puts a mark
// between two shown values (a label and its value, a text and its note), which must come from the
// tables so each language has its own. The demo merchant's texts (src/sandbox) are merchant data.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';
import { translate } from '../../src/renderer/src/i18n/translate';
import { asciiMarksInChinese, codeJoins, literalsOf } from '../support/chinese-punctuation';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the rule', () => {
  it('finds ASCII marks beside Chinese and lets addresses, numbers, code and placeholders of English through', () => {
    expect(asciiMarksInChinese('充值手机号: 13800138000')).toEqual(['手机号: 13']);
    expect(asciiMarksInChinese('角色名(选填)')).toEqual(['角色名(选填)', '(选填)']);
    expect(asciiMarksInChinese('{label}: {value}，已保存')).toEqual(['{…}: {…}，']);
    expect(asciiMarksInChinese('真的吗?好!')).toEqual(['真的吗?好!', '吗?好!']);
    expect(asciiMarksInChinese('地址必须以 https://api.example.cn/openapi/v1?x=1 开头。')).toEqual([]);
    expect(asciiMarksInChinese('比例 1:1，时间 10:30，上限 ¥1,000,000.00')).toEqual([]);
    expect(asciiMarksInChinese('最多 {maxRows, plural, other {# 行}}、{maxMb} MB')).toEqual([]);
    expect(asciiMarksInChinese('{label}: {value}')).toEqual([]);
    expect(asciiMarksInChinese('充值手机号：13800138000（选填）')).toEqual([]);
  });

  it('reads the literals of a source file and the marks code puts between values', () => {
    const source = "const a = '商品 (1)'; // 注释: 不算\nconst b = `${x}（${y}）`;\nconst c = `${label}: ${value}`;\nconst d = list.join(', ');\nconst e = `${id}:${n}`;";
    const jsx = 'const f = <p>{t(\'a\')}: {url}</p>;\nconst g = <p>{a}·{b}</p>;';
    expect(literalsOf('x.ts', source).map((l) => l.text)).toEqual(['商品 (1)', '\uE000（\uE000）', '\uE000: \uE000', ', ', '\uE000:\uE000']);
    expect(codeJoins('x.ts', source).map((j) => j.line)).toEqual([3, 4]);
    expect(codeJoins('x.tsx', jsx).map((j) => j.line)).toEqual([1]);
  });
});

describe('zh-CN punctuation', () => {
  it('the zh-CN message table writes full-width marks', () => {
    const keys = Object.keys(en) as MessageKey[];
    const offenders = keys.flatMap((key) => asciiMarksInChinese(zhCN[key]).map((hit) => `${key}: ${hit}`));
    expect(offenders).toEqual([]);
  });

  it('every Chinese text of the source (core, shared, main, hosts, renderer) writes full-width marks', () => {
    const files = ['src/core', 'src/shared', 'src/main', 'src/cli', 'src/web-host', 'src/renderer/src'].flatMap(sourceFiles);
    const offenders = files.flatMap((path) =>
      literalsOf(path, readFileSync(path, 'utf8')).flatMap(({ line, text }) => asciiMarksInChinese(text).map((hit) => `${path}:${line}: ${hit}`)),
    );
    expect(offenders).toEqual([]);
  });

  it('each language joins a label and its value, a text and its note, and lists with its own marks', () => {
    expect(translate('zh-CN', 'join.labelValue', { label: '充值手机号', value: '13800138000' })).toBe('充值手机号：13800138000');
    expect(translate('zh-CN', 'join.note', { text: '角色名', note: translate('zh-CN', 'order.optional') })).toBe('角色名（选填）');
    expect(['1', '2'].join(translate('zh-CN', 'join.list'))).toBe('1、2');
    expect(translate('en', 'join.labelValue', { label: 'Phone', value: '13800138000' })).toBe('Phone: 13800138000');
    expect(translate('en', 'join.note', { text: 'Role name', note: translate('en', 'order.optional') })).toBe('Role name (optional)');
  });

  it('the renderer never joins shown values with a mark of its own (each language has its separator)', () => {
    const files = sourceFiles('src/renderer/src').filter((path) => !/\/i18n\/messages-/.test(path));
    const offenders = files.flatMap((path) => codeJoins(path, readFileSync(path, 'utf8')).map(({ line, text }) => `${path}:${line}: ${text}`));
    expect(offenders).toEqual([]);
  });
});
