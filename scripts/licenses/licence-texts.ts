// A package's licence texts, as its folder holds them: LICENSE, LICENCE, COPYING, NOTICE (any case,
// any extension), whichever exist, in name order.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([-_.].*)?$/i;

export interface LicenceText {
  readonly file: string;
  readonly text: string;
}

export function licenceTexts(packageDir: string): LicenceText[] {
  return readdirSync(packageDir)
    .filter((name) => LICENCE_FILE.test(name) && statSync(join(packageDir, name)).isFile())
    .sort()
    .map((file) => ({ file, text: readFileSync(join(packageDir, file), 'utf8').replace(/\r\n/g, '\n').trimEnd() }));
}
