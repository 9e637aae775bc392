// What a purchase field holds, decided once from what its template says (contract §5.1): the
// interface has five types, so a QQ number, a UID and a game account are all `text` (or `integer`)
// and the kind comes from the evidence, strongest first: the type, then what the pattern admits,
// then the words of the label and fieldRef, then the placeholder. The kind says how a value is
// cleaned (purchase-entry-normalise.ts); a field nothing speaks for is free text, trimmed only.
import type { PurchaseFieldType } from './merchant/known-values';
import { foldToAscii } from './purchase-entry-normalise';
import { patternShape } from './purchase-pattern-shape';

/**
 * - mobile, email, integer, select: the type's own cleaning.
 * - numericId: only digits can be valid (a QQ number, a UID): spaces, dashes, invisible characters
 *   dropped, full-width digits folded.
 * - accountId: an account or identifier (a game account, a username): white space and invisible
 *   characters dropped, full-width ASCII folded; everything else (dashes, dots, @, CJK) kept.
 * - text: free text (a role name, a note): trimmed only.
 */
export type FieldKind = 'mobile' | 'email' | 'integer' | 'select' | 'numericId' | 'accountId' | 'text';

export interface FieldEvidence {
  readonly type: PurchaseFieldType;
  readonly fieldRef: string;
  readonly label: string;
  /** The pattern as the template wrote it (not anchored), or null. */
  readonly pattern: string | null;
  readonly placeholder: string | null;
}

/** A login name is an identifier even though it says "name". */
const LOGIN_WORDS = ['用户名', '登录名', '登陆名', 'username', 'loginname', 'login'];
const ID_WORDS_ZH = ['账号', '帐号', '账户', '帐户', '号码', '微信号', '编号', '卡号'];
const ID_TOKENS = new Set(['qq', 'uid', 'id', 'uin', 'account', 'acct', 'openid', 'wxid', 'userid', 'accountid', 'playerid']);
const TEXT_WORDS_ZH = ['名', '昵称', '备注', '留言', '地址', '说明', '描述', '签名'];
const TEXT_TOKENS = new Set(['name', 'nickname', 'nick', 'note', 'notes', 'remark', 'remarks', 'memo', 'message', 'comment', 'address', 'desc', 'description']);

/** Latin words of a label or fieldRef, camelCase split: `gameUID` → game, uid; `QQ号码` → qq. */
function tokens(text: string): string[] {
  const split = foldToAscii(text).replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return split.match(/[a-z]+/g) ?? [];
}

function says(text: string, zh: readonly string[], latin: ReadonlySet<string>): boolean {
  const folded = foldToAscii(text);
  return zh.some((word) => folded.includes(word)) || tokens(text).some((token) => latin.has(token) || (latin === ID_TOKENS && token.startsWith('qq')));
}

function saysLogin(text: string): boolean {
  const compact = foldToAscii(text).toLowerCase().replace(/[\s_\-.]/g, '');
  return LOGIN_WORDS.some((word) => compact.includes(word));
}

/** The kind of a field, from its template entry. */
export function fieldKind(field: FieldEvidence): FieldKind {
  if (field.type === 'mobile' || field.type === 'email' || field.type === 'select') return field.type;
  const shape = field.pattern === null ? null : patternShape(field.pattern);
  if (shape !== null) {
    // What the merchant's pattern admits is the strongest evidence: digits only is a numeric id
    // whatever the label says; a pattern that admits white space means spaces matter.
    if (shape.digitsOnly) return 'numericId';
    if (shape.allowsSpace) return field.type === 'integer' ? 'integer' : 'text';
    if (shape.visibleAscii && field.type === 'text') return 'accountId';
  }
  if (field.type === 'integer') return 'integer';
  const named = `${field.label} ${field.fieldRef}`;
  if (saysLogin(named)) return 'accountId';
  if (says(field.label, TEXT_WORDS_ZH, TEXT_TOKENS) || says(field.fieldRef, TEXT_WORDS_ZH, TEXT_TOKENS)) return 'text';
  if (says(named, ID_WORDS_ZH, ID_TOKENS)) return 'accountId';
  if (field.placeholder !== null && !says(field.placeholder, TEXT_WORDS_ZH, TEXT_TOKENS) && says(field.placeholder, ID_WORDS_ZH, ID_TOKENS)) return 'accountId';
  return 'text';
}
