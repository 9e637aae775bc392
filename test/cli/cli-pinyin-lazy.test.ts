// pinyin-pro costs a few hundred ms to load, so it is loaded only when a search document with Chinese
// in it is written (core/db/search-spelling.ts), never when the CLI or core starts (issue 26). A module
// hook in the CLI child records whether anything resolved the package; a database with a document
// queued by 0023 shows the other side: core's rebuild at open loads it and the product is found by pinyin.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME } from '../../src/core/create-core';
import { padGram, shortGrams } from '../../src/core/db/search-text';
import { runCli, type CliResult } from './cli-kit';

const dir = mkdtempSync(join(tmpdir(), 'cli-pinyin-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOADED = 'PINYIN-PRO-RESOLVED';
const hook = join(dir, 'pinyin-hook.mjs');
writeFileSync(
  hook,
  `import { registerHooks } from 'node:module';
let resolved = false;
registerHooks({ resolve(specifier, context, next) { if (specifier === 'pinyin-pro' || specifier.startsWith('pinyin-pro/')) resolved = true; return next(specifier, context); } });
process.on('exit', () => { if (resolved) process.stderr.write('\\n${LOADED}\\n'); });
`,
);
const hooked = { env: { NODE_OPTIONS: `--import=${hook}` } };

function search(dataDir: string, text: string): Promise<CliResult> {
  return runCli(dataDir, ['search', text, '--json'], hooked);
}

describe('cli: pinyin-pro is loaded only to write search documents', () => {
  it('is not loaded when the CLI starts and opens core, even for a pinyin search', async () => {
    const dataDir = join(dir, 'fresh');
    const result = await search(dataDir, 'aiqiyi');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 0 });
    expect(result.stderr).not.toContain(LOADED);
    // Again on the database the first run made (migrated, nothing queued).
    const again = await search(dataDir, '爱奇艺');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain(LOADED);
  });

  it('is loaded by the rebuild of a document queued by 0023, which then finds the product by pinyin', async () => {
    const dataDir = join(dir, 'queued');
    expect((await search(dataDir, 'aqy')).code).toBe(0);
    const db = new Database(join(dataDir, DATABASE_FILE_NAME));
    try {
      db.prepare(
        `INSERT INTO products (product_ref, catalog_ref, name, product_type, brand_name, availability, revision, listed_revision, synced_at)
         VALUES (7, 1, '爱奇艺黄金会员', 'card', NULL, 'available', 1, 1, 1)`,
      ).run();
      // The document as written before 0023 (its own characters only), and the queue entry 0023 makes.
      const grams = [...new Set(shortGrams('爱奇艺黄金会员').map(padGram))].join('');
      db.prepare("INSERT INTO product_search (rowid, text, grams) VALUES (7, '爱奇艺黄金会员', ?)").run(grams);
      db.prepare('INSERT INTO product_search_stale (product_ref) VALUES (7)').run();
    } finally {
      db.close();
    }
    const result = await search(dataDir, 'aqy');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(LOADED);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 1, items: [{ name: '爱奇艺黄金会员' }] });
  });
});
