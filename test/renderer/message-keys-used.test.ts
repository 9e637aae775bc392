// Every message in the tables is one the renderer can show: a key nobody names is a text no buyer
// ever reads, and it still has to be kept translated and checked. A key counts as named when the
// renderer's (or shared) source holds it as a literal, or holds a template literal built on its
// prefix (`sync.phase.${phase}`), which names a whole family of keys at once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/renderer/src/i18n/messages-en';

const ROOTS = ['src/renderer/src', 'src/shared'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\/i18n\/messages-/.test(path) ? [path] : [];
  });
}

describe('message keys', () => {
  it('every key in the tables is named by the code that shows it', () => {
    const source = ROOTS.flatMap(sourceFiles)
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const prefixes = [...source.matchAll(/`([A-Za-z][\w.]*\.)\$\{/g)].map((match) => match[1] ?? '');
    const unnamed = Object.keys(en).filter((key) => {
      if (source.includes(`'${key}'`) || source.includes(`"${key}"`) || source.includes(`\`${key}\``)) return false;
      return !prefixes.some((prefix) => key.startsWith(prefix));
    });
    expect(unnamed).toEqual([]);
  });
});
