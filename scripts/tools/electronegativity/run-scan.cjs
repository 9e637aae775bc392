// The scan itself, in a process of its own started by scripts/electronegativity.ts with the Node that
// runs it:  node run-scan.cjs <install dir> <input folder> <electron version> <result.json>
// Offline by construction: the release-list check is excluded (its only source is GitHub) and the
// translations are the English ones the package ships, so nothing is fetched; offline-guard.cjs
// ends the process should anything try. Writes the runner's {issues, errors} as JSON.
'use strict';
require('./offline-guard.cjs');
const { writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');

const [installDir, input, electronVersion, resultFile] = process.argv.slice(2);
if (resultFile === undefined) throw new Error('usage: run-scan.cjs <install dir> <input folder> <electron version> <result.json>');
const fromTool = (request) => require.resolve(request, { paths: [installDir] });

// AvailableSecurityFixesGlobalCheck downloads github.com/electron/releases on every run to say
// whether a newer patch exists; the pinned Electron is judged by test/shell/runtime-versions.test.ts
// (electron-support.json: latestPatch) instead.
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

/** The tool's locales/i18n.js configures i18n from its own locale files, then fetches a newer
 *  translation from S3 (got, retried after its 1 s timeout: offline that retry throws from a timer
 *  and kills the process). The same configuration without the fetch takes its place. */
function useShippedTranslations() {
  const i18nModule = fromTool('@doyensec/electronegativity/dist/locales/i18n.js');
  const i18n = require(require.resolve('i18n', { paths: [dirname(i18nModule)] }));
  const configure = async () => {
    i18n.configure({ locales: ['en-US'], defaultLocale: 'en-US', directory: dirname(i18nModule), updateFiles: false, objectNotation: true, retryInDefaultLocale: true, register: global });
    i18n.setLocale('en-US');
  };
  const replacement = new Module(i18nModule);
  replacement.filename = i18nModule;
  replacement.loaded = true;
  replacement.exports = configure;
  require.cache[i18nModule] = replacement;
}

async function main() {
  useShippedTranslations();
  const run = require(fromTool('@doyensec/electronegativity'));
  const result = await run({ input, isRelative: true, isVerbose: false, electronVersionOverride: electronVersion, excludeFromScan: EXCLUDED_CHECKS }, false);
  // Only the fields the report needs: an issue may also hold parts of the syntax tree.
  const issues = result.issues.map(({ id, severity, confidence, file, location, sample, description }) => ({ id, severity, confidence, file, location, sample, description }));
  writeFileSync(resultFile, JSON.stringify({ issues, errors: result.errors }));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
