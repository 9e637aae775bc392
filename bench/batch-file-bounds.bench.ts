// (l) hostile batch files (issue 25, contract §13.1): each read in a fresh process as the CLI reads it,
// with its outcome, the process's peak resident memory above idle, and the time. Target: every file
// of at most 2 MiB stays within 200 MiB above idle, and each hostile one is refused with its reason.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { xlsxBytes } from '../src/core/export/xlsx-writer';
import { bombXlsx, chain, ENTITY_SHEET, filler, LAUGHS_STRINGS, manyRows, SHARED_SHEET, SHEET_END, SHEET_START, workbookOf } from '../test/core/batch/hostile-xlsx';

const TARGET_MIB = 200;

interface Measured {
  outcome: string;
  idleMiB: number;
  peakAboveIdleMiB: number;
  ms: number;
}

function measure(path: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'batch-file-read-child.ts'), path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Measured);
      } catch (error) {
        reject(new Error(`no measurement for ${path}: ${String(error)}`));
      }
    });
  });
}

async function files(dir: string): Promise<[string, string][]> {
  const write = (name: string, bytes: Uint8Array | string): [string, string] => {
    writeFileSync(join(dir, name), bytes);
    return [name, join(dir, name)];
  };
  const csvRow = (i: number): string => `1380013${String(i % 10_000).padStart(4, '0')},1,${'备注'.repeat(20)}\n`;
  const bigCsv = join(dir, 'rows-50mb.csv');
  writeFileSync(bigCsv, 'account,units,note\n');
  const block = Array.from({ length: 10_000 }, (_, i) => csvRow(i)).join('');
  for (let written = 0; written < 50 * 1024 * 1024; written += Buffer.byteLength(block)) writeFileSync(bigCsv, block, { flag: 'a' });
  const legit = await xlsxBytes({ sheetName: 'S', headers: ['account', 'units', 'note', 'zone', 'name'], rows: Array.from({ length: 5000 }, (_, i) => [`1380013${String(i).padStart(4, '0')}`, { fen: 100 }, `备注 ${i} ${'x'.repeat(i % 50)}`, `zone-${i % 7}`, `买家${i}`]) });
  return [
    write('legit-5000-rows.xlsx', legit),
    write('legit-5000-rows.csv', `account,units,note\n${Array.from({ length: 5000 }, (_, i) => csvRow(i)).join('')}`),
    write('bomb-1.7GB-lying-headers.xlsx', await bombXlsx(1700, true)),
    write('million-rows.xlsx', await workbookOf(manyRows(1_000_000))),
    write('entity-sheet.xlsx', await workbookOf([ENTITY_SHEET])),
    write('laughs-shared-strings.xlsx', await workbookOf([SHARED_SHEET], { sharedStrings: [LAUGHS_STRINGS] })),
    write('part-33MiB.xlsx', await workbookOf(chain([SHEET_START], filler(33), [SHEET_END]))),
    write('parts-66MiB.xlsx', await workbookOf(chain([`${SHEET_START}<row r="1"><c r="A1" t="s"><v>0</v></c></row>`], filler(22, 2), [SHEET_END]), { styles: chain(['<styleSheet>'], filler(22, 3), ['</styleSheet>']), sharedStrings: chain(['<sst><si><t>x</t></si>'], filler(22, 4), ['</sst>']) })),
    write('rows-200k-2MiB.csv', `a\n${'1\n'.repeat(200_000)}`),
    ['rows-50mb.csv', bigCsv],
  ];
}

export async function benchBatchFileBounds(): Promise<{ lines: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'procure-bench-bounds-'));
  const lines = ['(l) batch files read within bounds: outcome, peak RSS above idle (target ≤ 200 MiB for files ≤ 2 MiB), time'];
  try {
    for (const [name, path] of await files(dir)) {
      const m = await measure(path);
      const flag = m.peakAboveIdleMiB <= TARGET_MIB ? 'ok' : 'OVER TARGET';
      lines.push(`    ${name.padEnd(30)} ${m.outcome.padEnd(28)} +${m.peakAboveIdleMiB.toFixed(0).padStart(4)} MiB (idle ${m.idleMiB.toFixed(0)} MiB) ${m.ms.toFixed(0).padStart(6)} ms  ${flag}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { lines };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of (await benchBatchFileBounds()).lines) console.log(line);
}
