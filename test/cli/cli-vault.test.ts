// `vault list`, `vault reveal` and `vault export` as a script runs them, against cards the sandbox
// really delivered (order create, webhooks to a background `run`) and an order refunded by a second
// client on the same account: the list masked exactly as the vault screen masks (never a full
// secret), the reveal only with --yes and audited with the very row the app writes for the same
// reveal, the export opened back with its password by 7-Zip and msoffcrypto-tool and refused with a
// weak one or one given in argv, refunded cards only with the acknowledgement, and no secret in the
// log (nor, unencrypted, anywhere in the data folder).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src/core/app/app-service';
import { createCore } from '../../src/core/create-core';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { PassphraseSecretStore } from '../../src/core/secrets/passphrase-secret-store';
import { parseAuditFacts } from '../../src/shared/ipc/views/audit';
import { toolPath } from '../support/external-tools';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';
import { MSOFFCRYPTO, parseCsv, readXlsx, run, SEVEN_ZIP } from '../core/export/file-readers';
import { auditRows, cardProduct, connectedFolder, orderWithCards, refundInFull, withRunner, type AuditRow } from './cards-kit';
import { CLI_ENTRY, filesContaining, jsonErrorOf, jsonOf, PASSPHRASE, runCli, type CliOptions, type CliResult } from './cli-kit';

let sandbox: RunningSandbox;
let root: string;
let dir: string;
/** Two cards (or as many as one order may take), and one card of an order refunded elsewhere. */
let orderA: string;
let orderB: string;
let unitsA: number;
const STRONG = 'Kq7#vault-Export_2026';
const runs: CliResult[] = [];
/** Every plain code the CLI revealed, to be looked for where it must never be. */
const secrets = new Set<string>();

async function cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await runCli(dir, args, { ...options, secrets: [STRONG, ...(options.secrets ?? [])] });
  runs.push(result);
  return result;
}

interface ListedCard {
  clientOrderRef: string;
  platformOrderRef: string | null;
  card: number;
  seq: number;
  cardNoMasked: string;
  hasPassword: boolean;
  price: string | null;
  refundMark: string | null;
}
interface Revealed {
  clientOrderRef: string;
  platformOrderRef: string | null;
  cards: { card: number; seq: number; cardNo: string; cardPassword: string | null }[];
}

async function revealAll(ref: string, extra: string[] = []): Promise<Revealed> {
  const result = await cli(['vault', 'reveal', ref, '--yes', '--json', ...extra]);
  expect(result.code, result.stderr).toBe(0);
  const revealed = jsonOf<Revealed>(result);
  for (const card of revealed.cards) {
    secrets.add(card.cardNo);
    if (card.cardPassword !== null) secrets.add(card.cardPassword);
  }
  return revealed;
}

/** The app's own channel on the same data folder: what it writes for the same reveal. */
async function appReveal(input: { clientOrderRef: string; seq: number; acknowledgeRefunded?: boolean }): Promise<void> {
  const store = await PassphraseSecretStore.open({ filePath: join(dir, 'secrets.json'), passphrase: PASSPHRASE });
  const core = await createCore({ dataDir: dir, secrets: store, logger: new RedactingLogger({ sink: () => undefined }) });
  try {
    const app = createAppService(core, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) });
    const result = await app.handle('vault.reveal', input);
    expect(result.ok, JSON.stringify(result)).toBe(true);
  } finally {
    await core.close();
  }
}

const sameRow = (row: AuditRow | undefined): Omit<AuditRow, 'id'> | undefined => (row === undefined ? undefined : { action: row.action, subject: row.subject, card_count: row.card_count, format: row.format, detail: row.detail });

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '20', '--time-scale', '5']);
  root = mkdtempSync(join(tmpdir(), 'procure-cli-vault-'));
  dir = await connectedFolder(sandbox, root, 'vault');
  const product = await cardProduct(sandbox, 2);
  unitsA = product.units;
  await withRunner(dir, async () => {
    orderA = await orderWithCards(dir, product.productRef, unitsA);
    orderB = await orderWithCards(dir, product.productRef, 1);
    await refundInFull(sandbox, dir, orderB);
  });
}, 180_000);

afterAll(async () => {
  await sandbox?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('cli vault list', () => {
  it('lists every card masked as the vault screen masks it, numbered from #1, the refunded order marked', async () => {
    const result = await cli(['vault', 'list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const list = jsonOf<{ total: number; cards: ListedCard[] }>(result);
    expect(list.total).toBe(unitsA + 1);
    const ofA = list.cards.filter((c) => c.clientOrderRef === orderA).sort((x, y) => x.seq - y.seq);
    expect(ofA.map((c) => c.card)).toEqual(Array.from({ length: unitsA }, (_v, i) => i + 1));
    expect(ofA.every((c) => c.refundMark === null && /^•{4,}[^•]{0,4}$/.test(c.cardNoMasked) && c.price !== null)).toBe(true);
    expect(list.cards.find((c) => c.clientOrderRef === orderB)?.refundMark).toBe('refunded');

    const revealed = await revealAll(orderA);
    for (const card of revealed.cards) {
      const row = ofA.find((c) => c.seq === card.seq);
      // The vault's rule: the last four characters of a long number, nothing of the password.
      expect(row?.cardNoMasked.slice(-4)).toBe(card.cardNo.slice(-4));
      expect(result.stdout).not.toContain(card.cardNo);
      if (card.cardPassword !== null) expect(result.stdout).not.toContain(card.cardPassword);
    }
  });

  it('narrows by order or product; text mode names cards as the vault does; unknown or bad refs exit 2', async () => {
    const one = await cli(['vault', 'list', '--order', orderB, '--json']);
    expect(jsonOf<{ total: number; cards: ListedCard[] }>(one).cards.map((c) => c.clientOrderRef)).toEqual([orderB]);
    const text = await cli(['vault', 'list', '--order', orderA]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/ #1\t•+/);
    expect(text.stdout.trim().split('\n').at(-1)).toBe(`${unitsA} card${unitsA === 1 ? '' : 's'}`);
    for (const card of secrets) expect(text.stdout).not.toContain(card);
    for (const args of [['--order', 'o_unknownOrderRef123'], ['--order', 'not a ref'], ['--order', orderA, '--product', '1'], ['--product', 'x'], ['--card', '1']]) {
      const refused = await cli(['vault', 'list', ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
    }
  });
});

describe('cli vault reveal', () => {
  it('refuses without --yes: exit 2, nothing printed, nothing audited', async () => {
    const before = auditRows(dir).length;
    const result = await cli(['vault', 'reveal', orderA, '--card', '1', '--json']);
    expect(result.code).toBe(2);
    expect(jsonErrorOf(result).code).toBe('USAGE'); // the refusal as JSON, no card code
    expect(result.stderr).toContain('--yes');
    expect(auditRows(dir)).toHaveLength(before);
  });

  it('one card: one `reveal` row, the same row the app writes for the same reveal', async () => {
    const before = auditRows(dir).length;
    const result = await cli(['vault', 'reveal', orderA, '--card', '1', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const out = jsonOf<Revealed>(result);
    expect(out.cards.map((c) => [c.card, c.seq])).toEqual([[1, 0]]);
    expect(out.cards[0]?.cardNo).toBeTruthy();
    const rows = auditRows(dir);
    expect(rows).toHaveLength(before + 1);
    const cliRow = rows.at(-1);
    expect(cliRow).toMatchObject({ action: 'reveal', card_count: 1 });
    expect(parseAuditFacts(cliRow?.detail ?? null)?.subject).toMatchObject({ kind: 'card', card: { seq: 0, order: { platformOrderRef: out.platformOrderRef } } });

    await appReveal({ clientOrderRef: orderA, seq: 0 });
    const appRow = auditRows(dir).at(-1);
    expect(appRow?.id).toBe((cliRow?.id ?? 0) + 1);
    expect(sameRow(cliRow)).toEqual(sameRow(appRow));
  });

  it('the whole order: one `reveal` row counting every card; text mode prints #N and the codes', async () => {
    const before = auditRows(dir).length;
    const result = await cli(['vault', 'reveal', orderA, '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => line.split('\t')[0])).toEqual(Array.from({ length: unitsA }, (_v, i) => `#${i + 1}`));
    const rows = auditRows(dir);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'reveal', card_count: unitsA });
    expect(parseAuditFacts(rows.at(-1)?.detail ?? null)).toMatchObject({ subject: { kind: 'order' }, allCards: true });
  });

  it('a card of a refunded order: exit 5 without --acknowledge-refunded (nothing audited); with it, the app\'s row', async () => {
    const before = auditRows(dir).length;
    const refused = await cli(['vault', 'reveal', orderB, '--card', '1', '--yes', '--json']);
    expect(refused.code, refused.stderr).toBe(5);
    expect(jsonErrorOf(refused).message).toContain('refunded'); // the refusal as JSON, no card code
    expect(refused.stderr).toContain('refunded');
    expect(auditRows(dir)).toHaveLength(before);

    await revealAll(orderB, ['--card', '1', '--acknowledge-refunded']);
    const cliRow = auditRows(dir).at(-1);
    expect(parseAuditFacts(cliRow?.detail ?? null)?.refundAcknowledged).toEqual({ mark: 'refunded' });
    await appReveal({ clientOrderRef: orderB, seq: 0, acknowledgeRefunded: true });
    expect(sameRow(cliRow)).toEqual(sameRow(auditRows(dir).at(-1)));
  });

  it('unknown orders and cards, card 0 and extra words exit 2 and audit nothing', async () => {
    const before = auditRows(dir).length;
    for (const args of [['o_unknownOrderRef123', '--yes'], [orderA, '--card', String(unitsA + 1), '--yes'], [orderA, '--card', '0', '--yes'], [orderA, 'extra', '--yes'], ['--yes'], [orderA, '--yes', '--out', 'x']]) {
      const result = await cli(['vault', 'reveal', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
    expect(auditRows(dir)).toHaveLength(before);
  });
});

describe('cli vault export', () => {
  const out = (name: string): string => join(root, name);

  it('writes an encrypted XLSX (password from the environment) that msoffcrypto-tool opens with it; one `export` row', async () => {
    const before = auditRows(dir).length;
    const result = await cli(['vault', 'export', '--out', out('a.xlsx'), '--order', orderA, '--json'], { env: { PROCURE_EXPORT_PASSWORD: STRONG } });
    expect(result.code, result.stderr).toBe(0);
    const written = jsonOf<{ path: string; count: number; format: string; orders: number }>(result);
    expect(written).toMatchObject({ path: out('a.xlsx'), count: unitsA, format: 'xlsx', orders: 1 });
    const rows = auditRows(dir);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'export', card_count: unitsA, format: 'xlsx' });
    expect(parseAuditFacts(rows.at(-1)?.detail ?? null)).toMatchObject({ exportFormat: 'xlsx', writtenTo: out('a.xlsx'), subject: { kind: 'order' } });

    const plain = out('a-plain.xlsx');
    expect(run(MSOFFCRYPTO, ['-p', 'Wrong-Password-99', out('a.xlsx'), out('a-wrong.xlsx')]).status).not.toBe(0);
    const opened = run(MSOFFCRYPTO, ['-p', STRONG, out('a.xlsx'), plain]);
    expect(opened.status, opened.stderr).toBe(0);
    const cells = readXlsx(readFileSync(plain)).rows.flat().map((cell) => cell?.text ?? '');
    const revealed = await revealAll(orderA);
    for (const card of revealed.cards) expect(cells).toContain(card.cardNo);
  });

  it('writes a CSV in an AES ZIP (password from stdin) that 7-Zip opens with it and refuses without it', async () => {
    const result = await cli(['vault', 'export', '--out', out('b'), '--format', 'csv-zip', '--from', today(), '--to', today(), '--include-refunded', '--language', 'en'], { stdin: `${STRONG}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`exported ${unitsA + 1} cards of 2 orders to ${out('b.zip')}`);
    expect(run(SEVEN_ZIP, ['t', `-pWrong-Password-99`, out('b.zip')]).status).not.toBe(0);
    const extracted = run(SEVEN_ZIP, ['x', `-p${STRONG}`, '-so', out('b.zip')]);
    expect(extracted.status, extracted.stderr).toBe(0);
    const csv = parseCsv(extracted.stdout.toString('utf8').replace(/^\uFEFF/, ''));
    const revealed = [...(await revealAll(orderA)).cards, ...(await revealAll(orderB, ['--acknowledge-refunded'])).cards];
    // A code cell ends with the one TAB that keeps it text in a spreadsheet (contract §16.1).
    for (const card of revealed) expect(csv.flat()).toContain(`${card.cardNo}\t`);
    const facts = parseAuditFacts(auditRows(dir).filter((r) => r.action === 'export').at(-1)?.detail ?? null);
    expect(facts).toMatchObject({ exportFormat: 'zip', subject: { kind: 'dateRange' }, refundAcknowledged: { count: 1 } });
  });

  it('writes a TXT of codes in an AES ZIP (--format txt-zip): one card per line, "卡号 卡密" with --lines card-no-password; audited', async () => {
    const exportsBefore = auditRows(dir).filter((r) => r.action === 'export').length;
    const result = await cli(['vault', 'export', '--out', out('codes'), '--format', 'txt-zip', '--lines', 'card-no-password', '--order', orderA, '--json'], { stdin: `${STRONG}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonOf<{ path: string; count: number; format: string }>(result)).toMatchObject({ path: out('codes.zip'), count: unitsA, format: 'txt-zip' });
    const listing = run(SEVEN_ZIP, ['l', '-slt', `-p${STRONG}`, out('codes.zip')]).stdout.toString();
    expect(listing).toContain('Method = AES-256 Deflate');
    expect(listing).toMatch(/Path = procure-desk-cards-.*\.txt/);
    const extracted = run(SEVEN_ZIP, ['x', `-p${STRONG}`, '-so', out('codes.zip')]);
    expect(extracted.status, extracted.stderr).toBe(0);
    const revealed = (await revealAll(orderA)).cards;
    const expected = revealed.map((c) => (c.cardPassword === null ? c.cardNo : `${c.cardNo} ${c.cardPassword}`));
    expect(extracted.stdout.toString('utf8')).toBe(expected.map((line) => `${line}\n`).join(''));
    const rows = auditRows(dir).filter((r) => r.action === 'export');
    expect(rows).toHaveLength(exportsBefore + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'export', card_count: unitsA, format: 'zip' });
    expect(parseAuditFacts(rows.at(-1)?.detail ?? null)).toMatchObject({ exportFormat: 'zip', txtLines: 'cardNoPassword', writtenTo: out('codes.zip') });
    // --lines belongs to txt-zip only; a plain TXT is not offered here (as the plain CSV is not).
    for (const args of [['--lines', 'card-no'], ['--format', 'txt'], ['--format', 'txt-zip', '--lines', 'both']]) {
      const refused = await cli(['vault', 'export', '--out', out('no-codes'), '--order', orderA, ...args], { env: { PROCURE_EXPORT_PASSWORD: STRONG } });
      expect(refused.code, args.join(' ')).toBe(2);
    }
    expect(existsSync(out('no-codes.zip'))).toBe(false);
    expect(existsSync(out('no-codes.txt'))).toBe(false);
  });

  it('several orders: their cards, as picked in the vault (one `export` row of selected cards)', async () => {
    const result = await cli(['vault', 'export', '--out', out('picked.xlsx'), '--order', orderA, '--order', orderB, '--include-refunded', '--json'], { env: { PROCURE_EXPORT_PASSWORD: STRONG } });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonOf<{ count: number; orders: number }>(result)).toMatchObject({ count: unitsA + 1, orders: 2 });
    const row = auditRows(dir).at(-1);
    expect(row).toMatchObject({ action: 'export', card_count: unitsA + 1 });
    expect(parseAuditFacts(row?.detail ?? null)?.subject).toMatchObject({ kind: 'cards', more: 0 });
  });

  it('refunded cards need --include-refunded (exit 5); weak, missing or argv passwords exit 2; nothing written or audited', async () => {
    const before = auditRows(dir).length;
    const cases: { args: string[]; options: CliOptions; code: number; says: string }[] = [
      { args: ['--order', orderB], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 5, says: 'refunded' },
      { args: ['--order', orderA], options: { env: { PROCURE_EXPORT_PASSWORD: 'password123' } }, code: 2, says: 'common' },
      { args: ['--order', orderA], options: { stdin: 'short1\n' }, code: 2, says: 'at least 10 characters' },
      { args: ['--order', orderA], options: {}, code: 2, says: 'a password is required' },
      { args: ['--order', orderA, '--password', 'Argv-Pass_2026x'], options: {}, code: 2, says: 'never taken from the command line' },
      { args: ['--order', orderA, '--password=Argv-Pass_2026x'], options: {}, code: 2, says: 'never taken from the command line' },
      { args: [], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 2, says: 'choose what to export' },
      { args: ['--order', orderA, '--not-exported'], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 2, says: 'choose what to export' },
      { args: ['--order', 'o_unknownOrderRef123'], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 2, says: 'no order o_unknownOrderRef123' },
      { args: ['--product', '999999'], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 2, says: 'no cards' },
      { args: ['--from', '2026-02-30', '--to', '2026-03-01'], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 2, says: 'YYYY-MM-DD' },
      { args: ['--order', orderA, '--format', 'csv'], options: { env: { PROCURE_EXPORT_PASSWORD: STRONG } }, code: 2, says: 'xlsx, csv-zip or txt-zip' },
    ];
    for (const c of cases) {
      const result = await cli(['vault', 'export', '--out', out('refused.xlsx'), ...c.args], c.options);
      expect(result.code, `${c.args.join(' ')}: ${result.stderr}`).toBe(c.code);
      expect(result.stderr).toContain(c.says);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('Argv-Pass_2026x');
      expect(result.stderr).not.toContain('password123');
    }
    expect(existsSync(out('refused.xlsx'))).toBe(false);
    // A folder that is not there: exit 1 naming the target, nothing written or audited.
    const nowhere = await cli(['vault', 'export', '--out', join(root, 'no-such-folder', 'x.xlsx'), '--order', orderA], { env: { PROCURE_EXPORT_PASSWORD: STRONG } });
    expect(nowhere.code, nowhere.stderr).toBe(1);
    expect(nowhere.stderr).toContain(`could not be saved at ${join(root, 'no-such-folder', 'x.xlsx')}`);
    expect(auditRows(dir)).toHaveLength(before);
    // An existing file stays unless --overwrite.
    const again = await cli(['vault', 'export', '--out', out('a.xlsx'), '--order', orderA], { env: { PROCURE_EXPORT_PASSWORD: STRONG } });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--overwrite');
    const overwritten = await cli(['vault', 'export', '--out', out('a.xlsx'), '--order', orderA, '--overwrite'], { env: { PROCURE_EXPORT_PASSWORD: STRONG } });
    expect(overwritten.code, overwritten.stderr).toBe(0);
    expect(auditRows(dir)).toHaveLength(before + 1);
  });
});

/** Runs the CLI on a pseudo-terminal (Python's pty), typing `typed` + Enter at the password prompt: all it showed, and its exit code. */
function onTerminal(args: readonly string[], typed: string): { code: number | null; shown: string } {
  const result = spawnSync(toolPath('python3'), ['-c', PTY_SCRIPT, process.execPath, ...CLI_ENTRY, '--data', dir, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, PROCURE_PASSPHRASE: PASSPHRASE, PW_TO_TYPE: typed, PROCURE_EXPORT_PASSWORD: '' },
    timeout: 90_000,
  });
  return { code: result.status, shown: `${result.stdout.toString('utf8')}${result.stderr.toString('utf8')}` };
}

const PTY_SCRIPT = `
import os, pty, sys, time, select
argv = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out = b''
def drain(t):
    global out
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return False
            if not chunk: return False
            out += chunk
    return True
deadline = time.time() + 60
while b'Export password:' not in out and time.time() < deadline:
    if not drain(0.2): break
os.write(fd, os.environ['PW_TO_TYPE'].encode() + b'\\r')
while drain(0.5) and time.time() < deadline:
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf8', 'replace'))
sys.exit(os.waitstatus_to_exitcode(status))
`;

// Python's pty module exists only on POSIX: Windows has no pseudo-terminal to type the password into.
describe.skipIf(process.platform === 'win32')('cli vault export at a terminal', () => {
  it('asks for the password without echoing it', () => {
    const typed = 'Typed-At-Terminal_77';
    secrets.add(typed);
    const { code, shown } = onTerminal(['vault', 'export', '--out', join(root, 'typed.xlsx'), '--order', orderA], typed);
    expect(code, shown).toBe(0);
    expect(shown).toContain('Export password:');
    expect(shown).toContain('exported');
    expect(shown).not.toContain(typed);
    expect(run(MSOFFCRYPTO, ['-p', typed, join(root, 'typed.xlsx'), join(root, 'typed-plain.xlsx')]).status).toBe(0);
  });
});

describe('cli vault: secrets', () => {
  it('no card code, export password or API key in the log or, unencrypted, anywhere in the data folder; none in argv', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(unitsA + 1);
    const log = readFileSync(join(dir, 'procure-desk.log'), 'utf8');
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [...secrets, STRONG, 'password123', 'Argv-Pass_2026x', sandbox.apiKey]) {
      expect(log).not.toContain(secret);
      expect(filesContaining(dir, secret)).toEqual([]);
    }
    for (const result of runs) expect(result.argv.some((arg) => arg.includes(STRONG))).toBe(false);
  });
});

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
