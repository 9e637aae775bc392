// Audit rows worded from their facts in the buyer's language: cards named as the vault names them
// (the merchant's order number, #1 for the card stored at seq 0), the copy naming its field, an
// export its protection, an acknowledgement its mark or count, and no English left in zh-CN.
import { describe, expect, it } from 'vitest';
import type { AuditFacts } from '../../src/shared/ipc/views/audit';
import type { Locale } from '../../src/renderer/src/i18n/locale';
import type { MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { translate, type Params } from '../../src/renderer/src/i18n/translate';
import { auditDetailWords, auditSubjectWords } from '../../src/renderer/src/lib/audit-words';

const words = (locale: Locale) => ({ locale, t: (key: MessageKey, params?: Params) => translate(locale, key, params) });
const order = { platformOrderRef: '2026112500000001', productName: '爱奇艺黄金会员 月卡', productRef: 1001 };
const unnumbered = { platformOrderRef: null, productName: '腾讯视频 月卡', productRef: 1002 };

const copy: AuditFacts = { v: 1, subject: { kind: 'card', card: { order, seq: 0 } }, copied: 'cardNo' };
const exported: AuditFacts = {
  v: 1,
  subject: { kind: 'cards', cards: [{ order, seq: 0 }, { order: unnumbered, seq: 2 }], more: 3 },
  exportFormat: 'csv',
  writtenTo: '/home/buyer/cards.csv',
  refundAcknowledged: { count: 2 },
};

describe('audit rows in the buyer’s language', () => {
  it('zh-CN: #1 for seq 0, the copied field, the export and acknowledgement in Chinese', () => {
    const zh = words('zh-CN');
    expect(auditSubjectWords(zh, copy)).toBe('2026112500000001 #1');
    expect(auditDetailWords(zh, copy)).toBe('卡号已复制到剪贴板');
    expect(auditSubjectWords(zh, exported)).toBe('2026112500000001 #1、腾讯视频 月卡（尚未编号） #3 等，另有 3 张');
    expect(auditDetailWords(zh, exported)).toBe('未加密的 CSV 明文文件：买家已确认风险；保存到 /home/buyer/cards.csv；已告知买家其中 2 张卡密属于已退款或已取消的订单，买家确认继续');
    const all = [auditSubjectWords(zh, exported), auditDetailWords(zh, exported), auditDetailWords(zh, { ...copy, refundAcknowledged: { mark: 'partlyRefunded' } })].join(' ');
    expect(all.replace('/home/buyer/cards.csv', '').replace('CSV', '')).not.toMatch(/[A-Za-z]{3,}/);
  });

  it('a TXT export says its protection and its lines: plain, or the TXT inside the ZIP (not "holding a CSV")', () => {
    const plain: AuditFacts = { v: 1, subject: { kind: 'notExported' }, exportFormat: 'txt', txtLines: 'cardNoPassword' };
    const zipped: AuditFacts = { v: 1, subject: { kind: 'notExported' }, exportFormat: 'zip', txtLines: 'cardNo' };
    expect(auditDetailWords(words('zh-CN'), plain)).toBe('未加密的 TXT 明文文件：买家已确认风险；每行“卡号 卡密”');
    expect(auditDetailWords(words('zh-CN'), zipped)).toBe('带密码保护的 ZIP（AES-256 加密），内含 TXT；每行一个卡号');
    expect(auditDetailWords(words('en'), zipped)).toBe('Password-protected ZIP (AES-256) holding a TXT; one card number per line');
  });

  it('an export the browser downloaded names the file it saved, and no folder of the host', () => {
    const downloaded: AuditFacts = { v: 1, subject: { kind: 'notExported' }, exportFormat: 'xlsx', downloadedAs: '卡密-演示商户-20261128.xlsx' };
    expect(auditDetailWords(words('zh-CN'), downloaded)).toBe('带密码保护的 XLSX（AES-256 加密）；已在浏览器中下载（卡密-演示商户-20261128.xlsx）');
    expect(auditDetailWords(words('en'), downloaded)).toBe('Password-protected XLSX (AES-256); Downloaded in the browser (卡密-演示商户-20261128.xlsx)');
  });

  it('English: the same facts, plural counts', () => {
    const en = words('en');
    expect(auditSubjectWords(en, { v: 1, subject: { kind: 'order', order }, allCards: true })).toBe('Order 2026112500000001');
    expect(auditDetailWords(en, { v: 1, subject: { kind: 'order', order }, allCards: true })).toBe('All cards of the order');
    expect(auditSubjectWords(en, exported)).toBe('2026112500000001 #1, 腾讯视频 月卡 (not yet numbered) #3 and 3 more cards');
    expect(auditDetailWords(en, { ...exported, refundAcknowledged: { count: 1 } })).toContain('1 card belongs to refunded or cancelled orders');
    expect(auditSubjectWords(en, { v: 1, subject: { kind: 'notExported' } })).toBe('Cards not yet exported');
  });
});
