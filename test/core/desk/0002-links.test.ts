// Desk migration 0002 (links and fallback rules): its tables and constraints, the link store over
// them (merge, unlink, rules naming only merchants in the link), and a removed profile leaving no
// member and no place in a rule behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { deskMigrations } from '../../../src/core/desk/desk-migrations';
import { createLinkStore, LinkInputError, LinkNotFoundError, type LinkStore } from '../../../src/core/desk/link-store';
import { openDesk, type Desk } from '../../../src/core/desk/desk';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { createMigratedDatabase, tableColumns, type TempDatabase } from '../db/temp-database';

const key = (profileId: string, productRef: number, variantRef = 0) => ({ profileId, productRef, variantRef });

describe('desk 0002 links', () => {
  let temp: TempDatabase;
  let db: Database;
  let store: LinkStore;
  beforeEach(() => {
    temp = createMigratedDatabase(deskMigrations);
    db = temp.db;
    for (const id of ['p1', 'p2', 'p3']) {
      db.prepare("INSERT INTO profiles (id, name, name_key, folder, secret_prefix, position, created_at) VALUES (?, ?, ?, ?, ?, 1, 1)").run(id, id, id, `f/${id}`, `s.${id}.`);
    }
    store = createLinkStore(db);
  });
  afterEach(() => temp.dispose());

  it('is desk migration 2 with links, members, rules and their preference', () => {
    expect(deskMigrations.find((migration) => migration.id === 2)).toMatchObject({ id: 2, name: 'links' });
    expect(tableColumns(db, 'links')).toEqual(['link_id', 'created_at']);
    expect(tableColumns(db, 'link_members')).toEqual(['profile_id', 'product_ref', 'variant_ref', 'link_id', 'added_at']);
    expect(tableColumns(db, 'link_rules')).toEqual(['link_id', 'max_unit_price_fen', 'updated_at']);
    expect(tableColumns(db, 'link_rule_preferences')).toEqual(['link_id', 'position', 'profile_id']);
    expect(tableColumns(db, 'batch_fallbacks')).toEqual(['batch_id', 'from_profile_id', 'from_name', 'to_profile_id', 'to_name', 'reason', 'limit_fen', 'product_ref', 'variant_ref', 'created_at']);
  });

  it('keeps a variant in one link, refs in range, members of known profiles and positive limits', () => {
    db.prepare('INSERT INTO links (link_id, created_at) VALUES (1, 1), (2, 1)').run();
    const member = (profile: string, product: number, variant: number, link: number): unknown =>
      db.prepare('INSERT INTO link_members (profile_id, product_ref, variant_ref, link_id, added_at) VALUES (?, ?, ?, ?, 1)').run(profile, product, variant, link);
    member('p1', 7, 0, 1);
    expect(() => member('p1', 7, 0, 2)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => member('p1', 0, 0, 1)).toThrow(/CHECK/);
    expect(() => member('p1', 7, -1, 1)).toThrow(/CHECK/);
    expect(() => member('p9', 7, 0, 1)).toThrow(/FOREIGN KEY/);
    expect(() => db.prepare('INSERT INTO link_rules (link_id, max_unit_price_fen, updated_at) VALUES (1, 0, 1)').run()).toThrow(/CHECK/);
    db.prepare('INSERT INTO link_rules (link_id, max_unit_price_fen, updated_at) VALUES (1, 500, 1)').run();
    db.prepare("INSERT INTO link_rule_preferences (link_id, position, profile_id) VALUES (1, 0, 'p1')").run();
    expect(() => db.prepare("INSERT INTO link_rule_preferences (link_id, position, profile_id) VALUES (1, 1, 'p1')").run()).toThrow(/UNIQUE/);
    db.prepare('DELETE FROM links WHERE link_id = 1').run();
    expect(db.prepare('SELECT count(*) FROM link_members').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM link_rule_preferences').pluck().get()).toBe(0);
  });

  it('links two variants, adds a third, merges two links (the first keeps its id and rule)', () => {
    const first = store.link(key('p1', 7), key('p2', 9, 1), 1);
    expect(first.members).toEqual([key('p1', 7), key('p2', 9, 1)]);
    expect(store.link(key('p3', 4), key('p1', 7), 2).members).toHaveLength(3);
    const other = store.link(key('p1', 8), key('p2', 10), 3);
    store.setRule(other.linkId, { maxUnitPriceFen: 900, preference: ['p2'] }, 3);
    store.setRule(first.linkId, { maxUnitPriceFen: 500, preference: ['p2', 'p3'] }, 3);
    const merged = store.link(key('p2', 9, 1), key('p1', 8), 4);
    expect(merged.linkId).toBe(first.linkId);
    expect(merged.members).toHaveLength(5);
    expect(merged.rule).toEqual({ maxUnitPriceFen: 500, preference: ['p2', 'p3'] });
    expect(store.get(other.linkId)).toBeNull();
    expect(store.linkOf(key('p2', 10))?.linkId).toBe(first.linkId);
    expect(store.link(key('p1', 7), key('p2', 10), 5).members).toHaveLength(5);
    expect(() => store.link(key('p1', 7), key('p1', 7), 5)).toThrow(LinkInputError);
    expect(store.linkIdsOfProducts('p1', [7, 8, 99])).toEqual(new Map([[7, [first.linkId]], [8, [first.linkId]]]));
  });

  it('refuses a rule naming a merchant not in the link or twice, and an unknown link', () => {
    const link = store.link(key('p1', 7), key('p2', 9), 1);
    expect(() => store.setRule(link.linkId, { maxUnitPriceFen: 500, preference: ['p3'] }, 2)).toThrow(LinkInputError);
    expect(() => store.setRule(link.linkId, { maxUnitPriceFen: 500, preference: ['p2', 'p2'] }, 2)).toThrow(LinkInputError);
    expect(() => store.setRule(404, { maxUnitPriceFen: 500, preference: ['p2'] }, 2)).toThrow(LinkNotFoundError);
    expect(store.get(link.linkId)?.rule).toBeNull();
    expect(store.setRule(link.linkId, { maxUnitPriceFen: 500, preference: ['p2', 'p1'] }, 2).rule).toEqual({ maxUnitPriceFen: 500, preference: ['p2', 'p1'] });
    expect(store.setRule(link.linkId, null, 3).rule).toBeNull();
  });

  it('unlinking leaves the rule without that merchant, and ends a link of one', () => {
    const link = store.link(key('p1', 7), key('p2', 9), 1);
    store.link(key('p1', 7), key('p3', 4), 1);
    store.setRule(link.linkId, { maxUnitPriceFen: 500, preference: ['p3', 'p2'] }, 2);
    expect(store.unlink(key('p3', 4))).toBe(link.linkId);
    expect(store.get(link.linkId)?.rule).toEqual({ maxUnitPriceFen: 500, preference: ['p2'] });
    expect(store.unlink(key('p3', 4))).toBeNull();
    store.unlink(key('p2', 9));
    expect(store.get(link.linkId)).toBeNull();
    expect(store.list()).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM link_rules').pluck().get()).toBe(0);
  });
});

describe('removing a profile', () => {
  let dataDir: string;
  let desk: Desk;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'procure-desk-links-'));
    desk = openDesk({ dataDir, secrets: new MemorySecretStore(), logger: new RedactingLogger({ sink: () => undefined }) });
  });
  afterEach(async () => {
    await desk.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('drops its members and its place in every rule; a link left with one member ends', async () => {
    const p2 = (await desk.add('Second')).record.id;
    const p3 = (await desk.add('Third')).record.id;
    const kept = desk.links.link(key('p1', 7), key(p2, 9), 1);
    desk.links.link(key('p1', 7), key(p3, 4), 1);
    desk.links.setRule(kept.linkId, { maxUnitPriceFen: 500, preference: [p3, p2] }, 1);
    const gone = desk.links.link(key('p1', 8), key(p3, 5), 1);
    desk.links.setRule(gone.linkId, { maxUnitPriceFen: 700, preference: [p3] }, 1);

    await desk.remove(p3, { discardUnexportedCards: false });

    expect(desk.links.list()).toEqual([{ linkId: kept.linkId, members: [key('p1', 7), key(p2, 9)], rule: { maxUnitPriceFen: 500, preference: [p2] } }]);
    expect(desk.db.prepare('SELECT count(*) FROM link_members WHERE profile_id = ?').pluck().get(p3)).toBe(0);
    expect(desk.db.prepare('SELECT count(*) FROM link_rule_preferences WHERE profile_id = ?').pluck().get(p3)).toBe(0);
    expect(desk.db.prepare('SELECT count(*) FROM link_rules').pluck().get()).toBe(1);
  });
});
