// The buyer's links and fallback rules in the desk database (desk 0002, contract §15.4): pure storage
// over desk.sqlite. A link is a set of variants (profile, productRef, variantRef) the buyer says are
// the same thing to buy; a variant is in at most one link, so linking two variants of two links
// merges them. A link left with fewer than two members is gone (a link of one says nothing), and a
// rule whose merchants have all left its link is gone with them: a rule never names a merchant that
// has nothing in its link.
import type { Database } from 'better-sqlite3';
import type { FallbackRule, VariantKey } from '../../shared/ipc/views/compare';

export interface LinkRecord {
  readonly linkId: number;
  /** In the order they joined. */
  readonly members: readonly VariantKey[];
  readonly rule: FallbackRule | null;
}

/** The buyer asked for something a link cannot be (a variant linked to itself, a rule naming a merchant not in it). */
export class LinkInputError extends Error {
  override readonly name = 'LinkInputError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export class LinkNotFoundError extends Error {
  override readonly name = 'LinkNotFoundError';
  constructor(linkId: number) {
    super(`no link ${linkId}`);
  }
}

export interface LinkStore {
  list(): LinkRecord[];
  get(linkId: number): LinkRecord | null;
  /** The link a variant belongs to, or null. */
  linkOf(key: VariantKey): LinkRecord | null;
  /** For each of a profile's products, the links any of its variants belong to. */
  linkIdsOfProducts(profileId: string, productRefs: readonly number[]): Map<number, number[]>;
  /** Joins two variants (and the links they were in: the first one's link and rule survive a merge). */
  link(a: VariantKey, b: VariantKey, now: number): LinkRecord;
  /** Takes a variant out of its link; the link ends when one member is left. Returns the link's id, or null when it was in none. */
  unlink(key: VariantKey): number | null;
  /** Sets (or with null, removes) a link's rule. */
  setRule(linkId: number, rule: FallbackRule | null, now: number): LinkRecord;
  /** A removed profile: its members and its place in any rule go; links and rules left empty with them. */
  dropProfile(profileId: string): void;
}

interface MemberRow {
  link_id: number;
  profile_id: string;
  product_ref: number;
  variant_ref: number;
}

const sameKey = (a: VariantKey, b: VariantKey): boolean => a.profileId === b.profileId && a.productRef === b.productRef && a.variantRef === b.variantRef;

export function createLinkStore(db: Database): LinkStore {
  const membersOf = db.prepare<[number], MemberRow>('SELECT link_id, profile_id, product_ref, variant_ref FROM link_members WHERE link_id = ? ORDER BY added_at, rowid');
  const linkIdOf = db.prepare<[string, number, number], { link_id: number }>('SELECT link_id FROM link_members WHERE profile_id = ? AND product_ref = ? AND variant_ref = ?');
  const ruleOf = db.prepare<[number], { max_unit_price_fen: number }>('SELECT max_unit_price_fen FROM link_rules WHERE link_id = ?');
  const preferenceOf = db.prepare<[number], { profile_id: string }>('SELECT profile_id FROM link_rule_preferences WHERE link_id = ? ORDER BY position');
  const exists = db.prepare<[number], { link_id: number }>('SELECT link_id FROM links WHERE link_id = ?');
  const insertMember = db.prepare('INSERT INTO link_members (profile_id, product_ref, variant_ref, link_id, added_at) VALUES (?, ?, ?, ?, ?)');

  const get = (linkId: number): LinkRecord | null => {
    if (exists.get(linkId) === undefined) return null;
    const rule = ruleOf.get(linkId);
    return {
      linkId,
      members: membersOf.all(linkId).map((row) => ({ profileId: row.profile_id, productRef: row.product_ref, variantRef: row.variant_ref })),
      rule: rule === undefined ? null : { maxUnitPriceFen: rule.max_unit_price_fen, preference: preferenceOf.all(linkId).map((row) => row.profile_id) },
    };
  };
  const idOf = (key: VariantKey): number | null => linkIdOf.get(key.profileId, key.productRef, key.variantRef)?.link_id ?? null;
  const mustGet = (linkId: number): LinkRecord => {
    const record = get(linkId);
    if (record === null) throw new LinkNotFoundError(linkId);
    return record;
  };
  /** Links of one member end; rules naming no merchant of their link end. */
  const tidy = (): void => {
    db.prepare('DELETE FROM link_rule_preferences WHERE NOT EXISTS (SELECT 1 FROM link_members m WHERE m.link_id = link_rule_preferences.link_id AND m.profile_id = link_rule_preferences.profile_id)').run();
    db.prepare('DELETE FROM links WHERE (SELECT count(*) FROM link_members m WHERE m.link_id = links.link_id) < 2').run();
    db.prepare('DELETE FROM link_rules WHERE NOT EXISTS (SELECT 1 FROM link_rule_preferences p WHERE p.link_id = link_rules.link_id)').run();
  };

  return {
    list: () =>
      db
        .prepare<[], { link_id: number }>('SELECT link_id FROM links ORDER BY link_id')
        .all()
        .map((row) => mustGet(row.link_id)),
    get,
    linkOf(key) {
      const id = idOf(key);
      return id === null ? null : get(id);
    },
    linkIdsOfProducts(profileId, productRefs) {
      const found = new Map<number, number[]>();
      if (productRefs.length === 0) return found;
      const rows = db
        .prepare<[string, string], { product_ref: number; link_id: number }>(
          'SELECT DISTINCT product_ref, link_id FROM link_members WHERE profile_id = ? AND product_ref IN (SELECT value FROM json_each(?)) ORDER BY product_ref, link_id',
        )
        .all(profileId, JSON.stringify(productRefs));
      for (const row of rows) found.set(row.product_ref, [...(found.get(row.product_ref) ?? []), row.link_id]);
      return found;
    },
    link(a, b, now) {
      if (sameKey(a, b)) throw new LinkInputError('a variant cannot be linked to itself', 'b');
      return db
        .transaction((): LinkRecord => {
          const [linkA, linkB] = [idOf(a), idOf(b)];
          if (linkA !== null && linkA === linkB) return mustGet(linkA);
          if (linkA === null && linkB === null) {
            const linkId = Number(db.prepare('INSERT INTO links (created_at) VALUES (?)').run(now).lastInsertRowid);
            insertMember.run(a.profileId, a.productRef, a.variantRef, linkId, now);
            insertMember.run(b.profileId, b.productRef, b.variantRef, linkId, now);
            return mustGet(linkId);
          }
          if (linkA === null && linkB !== null) {
            insertMember.run(a.profileId, a.productRef, a.variantRef, linkB, now);
            return mustGet(linkB);
          }
          if (linkA !== null && linkB === null) {
            insertMember.run(b.profileId, b.productRef, b.variantRef, linkA, now);
            return mustGet(linkA);
          }
          if (linkA === null || linkB === null) throw new Error('unreachable: both links are known here');
          // Two links become one: a's keeps its id and rule; b's rule goes (the buyer set it for the smaller set).
          db.prepare('UPDATE link_members SET link_id = ? WHERE link_id = ?').run(linkA, linkB);
          db.prepare('DELETE FROM links WHERE link_id = ?').run(linkB);
          return mustGet(linkA);
        })
        .immediate();
    },
    unlink(key) {
      return db
        .transaction((): number | null => {
          const linkId = idOf(key);
          if (linkId === null) return null;
          db.prepare('DELETE FROM link_members WHERE profile_id = ? AND product_ref = ? AND variant_ref = ?').run(key.profileId, key.productRef, key.variantRef);
          tidy();
          return linkId;
        })
        .immediate();
    },
    setRule(linkId, rule, now) {
      return db
        .transaction((): LinkRecord => {
          const record = mustGet(linkId);
          db.prepare('DELETE FROM link_rules WHERE link_id = ?').run(linkId);
          if (rule === null) return mustGet(linkId);
          const inLink = new Set(record.members.map((member) => member.profileId));
          if (new Set(rule.preference).size !== rule.preference.length) throw new LinkInputError('a merchant appears twice in the preference', 'rule.preference');
          const stranger = rule.preference.find((profileId) => !inLink.has(profileId));
          if (stranger !== undefined) throw new LinkInputError(`merchant ${stranger} has no variant in this link`, 'rule.preference');
          db.prepare('INSERT INTO link_rules (link_id, max_unit_price_fen, updated_at) VALUES (?, ?, ?)').run(linkId, rule.maxUnitPriceFen, now);
          const insert = db.prepare('INSERT INTO link_rule_preferences (link_id, position, profile_id) VALUES (?, ?, ?)');
          rule.preference.forEach((profileId, position) => insert.run(linkId, position, profileId));
          return mustGet(linkId);
        })
        .immediate();
    },
    dropProfile(profileId) {
      db.transaction(() => {
        db.prepare('DELETE FROM link_members WHERE profile_id = ?').run(profileId);
        db.prepare('DELETE FROM link_rule_preferences WHERE profile_id = ?').run(profileId);
        // Its batches went with its database.
        db.prepare('DELETE FROM batch_fallbacks WHERE to_profile_id = ?').run(profileId);
        tidy();
      }).immediate();
    },
  };
}
