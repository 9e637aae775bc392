// The TXT export of codes (contract §16.3): one card per line, the card number alone or `卡号 卡密` with
// one space; UTF-8 without a BOM, LF; plain only after the same acceptance as the CSV, or inside the AES
// ZIP; audited and marked like every export; a code a line cannot carry refused with the cards named
// (never their codes), nothing written, marked or audited.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportInput } from '../../../src/shared/ipc/views/vault';
import { createCardExporter, type CardExporter } from '../../../src/core/export/card-exporter';
import { ExportInputError } from '../../../src/core/export/export-request';
import { createVaultMarks } from '../../../src/core/export/vault-marks';
import { txtBytes, TxtCodeError } from '../../../src/core/export/txt-writer';
import { createVaultKit, type VaultKit } from './export-kit';
import { containsText, run, SEVEN_ZIP } from './file-readers';

const PASSWORD = `Txt-${randomBytes(4).toString('hex')}-码!`;
const T0 = 1_746_000_000;
const GOOD = [
  { card_no: '8740995830093416', card_password: '0012345678', expiresAt: null },
  { card_no: '0000000000000001', card_password: '=1+1,"卡密"', expiresAt: null },
  { card_no: '6222021234567890123', card_password: '', expiresAt: null },
];
const BAD_CODE = `BAD\r${randomBytes(3).toString('hex')}`;

let kit: VaultKit;
let exporter: CardExporter;
let dir: string;

const audit = () => kit.core.db.prepare<[], { action: string; format: string | null; card_count: number; detail: string | null }>('SELECT action, format, card_count, detail FROM audit_log ORDER BY id').all();
const exported = () => kit.core.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM cards WHERE exported_at IS NOT NULL').get()?.n ?? 0;
const to = (name: string) => () => Promise.resolve(join(dir, name));
const order = (clientOrderRef: string) => ({ kind: 'order', clientOrderRef }) as const;

beforeAll(async () => {
  kit = await createVaultKit();
  await kit.deliver({ clientOrderRef: 'PD_txt_a', platformOrderRef: '2026112400000001', productRef: 5, variantRef: 1, productName: '点卡', variantTitle: '100元', unitPriceFen: 10_000, createdAt: T0, cards: GOOD });
  await kit.deliver({
    clientOrderRef: 'PD_txt_b',
    platformOrderRef: '2026112400000002',
    productRef: 5,
    variantRef: 1,
    productName: '点卡',
    variantTitle: '100元',
    unitPriceFen: 10_000,
    createdAt: T0 + 60,
    cards: [{ card_no: '111', card_password: 'ok', expiresAt: null }, { card_no: BAD_CODE, card_password: 'x', expiresAt: null }],
  });
  exporter = createCardExporter({ db: kit.core.db, vault: kit.core.vault, logger: kit.logger, now: () => T0 + 3600 });
  dir = join(process.cwd(), 'test-results', `txt-export-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
});

afterAll(async () => {
  await kit?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('txt writer', () => {
  const cards = [
    { label: 'P #1', cardNo: '0012', cardPassword: 'pw 1' },
    { label: 'P #2', cardNo: '8740995830093416', cardPassword: null },
  ];

  it('writes one card per line, LF, UTF-8 without a BOM; a card without a password is its number alone', () => {
    expect(new TextDecoder().decode(txtBytes(cards, 'cardNo'))).toBe('0012\n8740995830093416\n');
    const chinese = txtBytes([{ label: 'x', cardNo: '卡号１', cardPassword: '密码' }], 'cardNoPassword');
    expect([...chinese.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(chinese)).toBe('卡号１ 密码\n');
  });

  it('refuses what one line cannot carry, naming the cards and never the codes', () => {
    const refused = (cardNo: string, cardPassword: string | null, lines: 'cardNo' | 'cardNoPassword' = 'cardNoPassword'): TxtCodeError | null => {
      try {
        txtBytes([{ label: 'ORDER9 #3', cardNo, cardPassword }], lines);
        return null;
      } catch (error) {
        if (error instanceof TxtCodeError) return error;
        throw error;
      }
    };
    for (const [no, pw] of [['a\rb', null], ['a\nb', null], ['a\u2028b', null], ['a\u0000b', null], [' ab', null], ['ab ', null], ['', null], ['ab', 'p\tq'], ['ab', 'p q'], ['a b', 'pq']] as const) {
      const error = refused(no, pw);
      expect(error, JSON.stringify([no, pw])).not.toBeNull();
      expect(error?.field).toBe('txtLines');
      expect(error?.message).toContain('ORDER9 #3');
      if (no.length > 2) expect(error?.message).not.toContain(no);
    }
    // One card number per line: a space inside the number is its own; the password is not written.
    expect(refused('a b', 'p\rq', 'cardNo')).toBeNull();
    expect(refused('ab', 'p\rq', 'cardNo')).toBeNull();
  });
});

describe('the TXT export', () => {
  const input = (extra: Partial<ExportInput>): ExportInput => ({ selection: order('PD_txt_a'), format: 'txt', ...extra });

  it('is refused without the plain-text acceptance, without its lines, or with a password; lines belong to txt and zip only', async () => {
    const before = audit().length;
    const cases: [Partial<ExportInput>, string][] = [
      [{ txtLines: 'cardNo' }, 'acceptPlainText'],
      [{ acceptPlainText: true }, 'txtLines'],
      [{ acceptPlainText: true, txtLines: 'cardNo', password: PASSWORD, passwordConfirm: PASSWORD }, 'password'],
      [{ format: 'xlsx', txtLines: 'cardNo', password: PASSWORD, passwordConfirm: PASSWORD }, 'txtLines'],
      [{ format: 'csv', txtLines: 'cardNo', acceptPlainText: true }, 'txtLines'],
    ];
    for (const [extra, field] of cases) {
      await expect(exporter.export(input(extra), to('never.txt'))).rejects.toSatisfy((e: unknown) => e instanceof ExportInputError && e.field === field);
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(audit()).toHaveLength(before);
  });

  it('writes "卡号 卡密" lines exactly, marks the cards and audits the file as a plain TXT', async () => {
    const outcome = await exporter.export(input({ acceptPlainText: true, txtLines: 'cardNoPassword' }), to('codes'));
    expect(outcome).toMatchObject({ status: 'written', fileName: 'codes.txt', count: 3, format: 'txt' });
    expect(readFileSync(join(dir, 'codes.txt'), 'utf8')).toBe('8740995830093416 0012345678\n0000000000000001 =1+1,"卡密"\n6222021234567890123\n');
    expect(exported()).toBe(3);
    const row = audit().at(-1);
    expect(row).toMatchObject({ action: 'export', format: 'txt', card_count: 3 });
    expect(JSON.parse(row?.detail ?? 'null')).toMatchObject({ exportFormat: 'txt', txtLines: 'cardNoPassword', writtenTo: join(dir, 'codes.txt') });
    expect(row?.detail).not.toContain('8740995830093416');
  });

  it('inside the AES ZIP: a .txt entry of card numbers that 7-Zip opens with the password only; audited as zip + lines', async () => {
    const outcome = await exporter.export({ selection: order('PD_txt_a'), format: 'zip', txtLines: 'cardNo', password: PASSWORD, passwordConfirm: PASSWORD }, to('codes.zip'));
    if (outcome.status !== 'written') throw new Error('not written');
    const listing = run(SEVEN_ZIP, ['l', '-slt', `-p${PASSWORD}`, outcome.path]).stdout.toString();
    expect(listing).toContain('Method = AES-256 Deflate');
    expect(listing).toMatch(/Path = procure-desk-cards-\d{8}-\d{6}-3\.txt/);
    const extracted = run(SEVEN_ZIP, ['x', `-p${PASSWORD}`, '-so', outcome.path]);
    expect(extracted.status, extracted.stderr).toBe(0);
    expect(extracted.stdout.toString('utf8')).toBe('8740995830093416\n0000000000000001\n6222021234567890123\n');
    expect(run(SEVEN_ZIP, ['t', `-p${PASSWORD}x`, outcome.path]).status).not.toBe(0);
    expect(containsText(readFileSync(outcome.path), '8740995830093416')).toBe(false);
    expect(audit().at(-1)).toMatchObject({ action: 'export', format: 'zip', card_count: 3 });
    expect(JSON.parse(audit().at(-1)?.detail ?? 'null')).toMatchObject({ exportFormat: 'zip', txtLines: 'cardNo' });
  });

  it('refuses an order holding a code with a CR: the card named, no file (nor a staged one), no mark, no audit row', async () => {
    createVaultMarks(kit.core.db).mark([{ clientOrderRef: 'PD_txt_b', seq: 0 }, { clientOrderRef: 'PD_txt_b', seq: 1 }], 'exported', false, 0);
    const before = { audit: audit().length, files: readdirSync(dir).sort(), exported: exported() };
    const attempt = exporter.export({ selection: order('PD_txt_b'), format: 'txt', txtLines: 'cardNo', acceptPlainText: true }, to('bad.txt'));
    await expect(attempt).rejects.toSatisfy((e: unknown) => e instanceof TxtCodeError && e.count === 1 && e.message.includes('2026112400000002 #2') && !e.message.includes(BAD_CODE));
    expect(readdirSync(dir).sort()).toEqual(before.files);
    expect(audit()).toHaveLength(before.audit);
    expect(exported()).toBe(before.exported);
    expect(kit.logLines.join('\n')).not.toContain(BAD_CODE.slice(4));
  });
});
