// Buyer words only in buyer screens (issue 26 point 2): no message of either table holds a developer's
// instruction (a command, a flag, an environment variable, a code mark); those live in the README and,
// where a buyer needs to pass one on, as code under "给技术人员" (components/ForTechnicalStaff.tsx).
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';
import { translate } from '../../src/renderer/src/i18n/translate';

const DEVELOPER_WORDS = /\bnpm\b|\bnpx\b|(?:^|\s)--[a-z]|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|`/;
const keys = Object.keys(en) as MessageKey[];

describe('buyer words', () => {
  it('the rule sees a command, a flag, an environment variable and a code mark', () => {
    for (const text of ['请重新启动 `npm run web`', '使用 --data 目录', '设置 PROCURE_PASSPHRASE', 'restart npm run web']) expect(text).toMatch(DEVELOPER_WORDS);
    for (const text of ['价格 10–20 元', '商户错误码 422103', 'API 密钥', '文件 → 以较弱的保护保存']) expect(text).not.toMatch(DEVELOPER_WORDS);
  });

  it('no message of either table holds a developer instruction', () => {
    const offenders = keys.flatMap((key) => [zhCN[key], en[key]].filter((text) => DEVELOPER_WORDS.test(text)).map((text) => `${key}: ${text}`));
    expect(offenders).toEqual([]);
  });

  it('the memory-only warning says to a browser buyer whom to ask, the command only as a slot for code', () => {
    expect(translate('zh-CN', 'secrets.memoryOnly.keepAsk')).toContain('给技术人员');
    expect(translate('zh-CN', 'techDetail.title')).toBe('给技术人员');
    expect(translate('en', 'techDetail.title')).toBe('For technical staff');
    expect(translate('zh-CN', 'secrets.memoryOnly.techWeb', { env: 'E', command: 'C' })).toMatch(/环境变量 E.*以 C 重新启动/);
  });
});
