// Which file column feeds which template field (and the units), contract §13.2. A mapping names
// columns by their header text, so one remembered for a product (batch_column_maps, 0020) fits the
// next file whose headers are the same in another order. Without one that fits, it is guessed from
// the headers: a header equal to a field's fieldRef or label (NFKC, case and spaces ignored), then a
// header holding a word the field's type is known by (手机/phone for a mobile, 账号/account for text,
// 数量/qty for the units). A guess is only a proposal: the buyer sees and may change it.
import type { Database } from 'better-sqlite3';
import { UNITS_TARGET, type BatchColumnMap } from '../../shared/batch-file';
import type { PurchaseTemplate } from '../../shared/merchant/template';

const key = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/[\s_\-:：()（）]/g, '');

const UNITS_WORDS = ['units', 'unit', 'qty', 'quantity', 'count', '数量', '份数', '件数', '购买数量', '充值数量'];
const TYPE_WORDS: Readonly<Record<string, readonly string[]>> = {
  mobile: ['手机', '手机号', '电话', 'phone', 'mobile', 'tel'],
  email: ['邮箱', 'email', 'mail'],
  text: ['账号', '帐号', '账户', 'account', 'qq', 'id'],
  integer: ['编号', 'number', 'id'],
  select: [],
};

export interface MappingTarget {
  readonly target: string;
  readonly names: readonly string[];
  readonly words: readonly string[];
}

/** The targets of a template: each field, then the units. */
export function mappingTargets(template: PurchaseTemplate): MappingTarget[] {
  const fields = template.entryMode === 'none' ? [] : template.purchaseFields;
  return [
    ...fields.map((field) => ({ target: field.fieldRef, names: [field.fieldRef, field.label], words: TYPE_WORDS[field.type] ?? [] })),
    { target: UNITS_TARGET, names: ['units'], words: UNITS_WORDS },
  ];
}

/** A proposal from the header names alone; a column feeds at most one target. */
export function guessMapping(header: readonly string[], template: PurchaseTemplate): Record<string, string> {
  const keys = header.map(key);
  const taken = new Set<number>();
  const mapping: Record<string, string> = {};
  const assign = (target: string, index: number): void => {
    taken.add(index);
    mapping[target] = header[index] ?? '';
  };
  const targets = mappingTargets(template);
  for (const { target, names } of targets) {
    const wanted = new Set(names.map(key).filter((name) => name !== ''));
    const index = keys.findIndex((name, i) => !taken.has(i) && name !== '' && wanted.has(name));
    if (index >= 0) assign(target, index);
  }
  for (const { target, words } of targets) {
    if (mapping[target] !== undefined) continue;
    const index = keys.findIndex((name, i) => !taken.has(i) && name !== '' && words.some((word) => name.includes(key(word))));
    if (index >= 0) assign(target, index);
  }
  // One column and one field: a file of accounts only.
  const fields = targets.filter((t) => t.target !== UNITS_TARGET);
  const only = fields[0];
  if (fields.length === 1 && only !== undefined && mapping[only.target] === undefined && header.length === 1 && header[0] !== '') assign(only.target, 0);
  return mapping;
}

/** A mapping's problems against this file and template: unknown targets and columns the file does not have. */
export function mappingProblems(mapping: BatchColumnMap, header: readonly string[], template: PurchaseTemplate): string[] {
  const targets = new Set(mappingTargets(template).map((t) => t.target));
  const columns = new Set(header.filter((name) => name !== ''));
  const problems: string[] = [];
  for (const [target, column] of Object.entries(mapping)) {
    if (!targets.has(target)) problems.push(`the template has no field "${target}"`);
    if (!columns.has(column)) problems.push(`the file has no column "${column}"`);
  }
  return problems;
}

/** The mapping remembered for a product, or null. */
export function rememberedMapping(db: Database, productRef: number): Record<string, string> | null {
  const row = db.prepare<[number], { map_json: string }>('SELECT map_json FROM batch_column_maps WHERE product_ref = ?').get(productRef);
  if (row === undefined) return null;
  const parsed: unknown = JSON.parse(row.map_json);
  if (parsed === null || typeof parsed !== 'object') return null;
  return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function rememberMapping(db: Database, productRef: number, mapping: BatchColumnMap, now: number): void {
  db.prepare(
    `INSERT INTO batch_column_maps (product_ref, map_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (product_ref) DO UPDATE SET map_json = excluded.map_json, updated_at = excluded.updated_at`,
  ).run(productRef, JSON.stringify(mapping), now);
}

/** What the preview uses: the buyer's own, else the remembered one when it fits this file, else a guess. */
export function chooseMapping(
  given: BatchColumnMap | null,
  remembered: BatchColumnMap | null,
  header: readonly string[],
  template: PurchaseTemplate,
): { mapping: BatchColumnMap; source: 'given' | 'remembered' | 'guessed' } {
  if (given !== null) return { mapping: given, source: 'given' };
  if (remembered !== null && Object.keys(remembered).length > 0 && mappingProblems(remembered, header, template).length === 0) return { mapping: remembered, source: 'remembered' };
  return { mapping: guessMapping(header, template), source: 'guessed' };
}
