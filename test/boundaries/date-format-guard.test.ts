// One home for how a date or time is written (src/shared/date-time.ts, contract §16). This guard reads
// every file of src and fails on a date written any other way: Intl.DateTimeFormat, a Date's
// toLocaleString/DateString/TimeString (the type checker tells a Date from a number, whose
// toLocaleString groups digits and is fine), or a string built from a Date's local getters.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const HOME = 'src/shared/date-time.ts';
/** Files that read a Date's fields for arithmetic, never to show it, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/sandbox/tls/certificate-builder.ts': 'the sandbox CA certificate validity: a year added to a Date, not a time shown',
};
const LOCAL_GETTERS = new Set(['getFullYear', 'getMonth', 'getDate', 'getDay', 'getHours', 'getMinutes', 'getSeconds', 'getTimezoneOffset', 'setDate', 'setFullYear', 'setHours']);
const LOCALE_DATE_CALLS = new Set(['toLocaleDateString', 'toLocaleTimeString']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
  // Imports are not followed: a Date is made where it is written (times cross the app as numbers), and
  // checking each file alone keeps this guard at seconds, not the minute the whole renderer's graph takes.
  noResolve: true,
};

/** Each place in the given files (path → text) that writes a date outside the home, as `path:line what`. */
export function dateFormatting(files: ReadonlyMap<string, string>): string[] {
  const host = ts.createCompilerHost(OPTIONS, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) => {
    const text = files.get(name);
    return text === undefined ? getSourceFile(name, language, onError) : ts.createSourceFile(name, text, language, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const name of files.keys()) {
    const source = program.getSourceFile(name);
    if (source === undefined) continue;
    const report = (node: ts.Node, what: string): void => {
      found.push(`${relative(ROOT, name)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const member = node.name.text;
        if (member === 'DateTimeFormat' && node.expression.getText() === 'Intl') report(node, 'Intl.DateTimeFormat');
        if (LOCALE_DATE_CALLS.has(member)) report(node, member);
        if (LOCAL_GETTERS.has(member) || member === 'toLocaleString') {
          const receiver = checker.getTypeAtLocation(node.expression);
          if (checker.typeToString(receiver) === 'Date') report(node, `Date.${member}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('dates are written by src/shared/date-time.ts only', () => {
  it('no file of src writes a date another way', () => {
    const files = new Map<string, string>();
    for (const path of sourceFiles(join(ROOT, 'src'))) {
      const rel = relative(ROOT, path);
      if (rel === HOME || rel in ALLOWED) continue;
      const text = readFileSync(path, 'utf8');
      // Only files that could hold such a call go to the type checker (it is the slow part).
      if (/DateTimeFormat|toLocale|\.get(FullYear|Month|Date|Day|Hours|Minutes|Seconds|TimezoneOffset)\(|\.set(Date|FullYear|Hours)\(/.test(text)) files.set(path.split('\\').join('/'), text);
    }
    expect(dateFormatting(files)).toEqual([]);
  }, 120_000);

  it('the guard sees each way, and lets a number’s toLocaleString be', () => {
    const probe = join(ROOT, 'src/renderer/src/lib/probe-dates.ts');
    const text = [
      "export const a = new Date(0).toLocaleString('zh-CN');",
      'const when = new Date(0);',
      "export const b = when.toLocaleDateString('en');",
      "export const c = new Intl.DateTimeFormat('zh-CN').format(when);",
      'export const d = `${when.getFullYear()}-${when.getMonth() + 1}`;',
      "export const e = (1234).toLocaleString('zh-CN');",
      'const count: number = 5;',
      "export const f = count.toLocaleString('en', { maximumFractionDigits: 1 });",
    ].join('\n');
    const found = dateFormatting(new Map([[probe, text]])).map((line) => line.replace(/^[^:]+:/, ''));
    expect(found).toEqual(['1 Date.toLocaleString', '3 toLocaleDateString', '4 Intl.DateTimeFormat', '5 Date.getFullYear', '5 Date.getMonth']);
  }, 60_000);
});
