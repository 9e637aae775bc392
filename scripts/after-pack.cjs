// electron-builder's afterPack hook: before an installer is made, check that the packed app holds the
// target's own native binaries and no other's — one better-sqlite3 prebuild, its OS's ngrok package —
// so a build made on the wrong OS (whose `npm ci` installed another OS's ngrok) fails instead of
// shipping an app whose tunnel cannot load. docs/developers.md: Releases and updates.
'use strict';
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

/** The ngrok package @ngrok/ngrok loads on each target (darwin-universal serves both Mac architectures). */
const NGROK_PACKAGE = { 'win32-x64': 'ngrok-win32-x64-msvc', 'darwin-x64': 'ngrok-darwin-universal', 'darwin-arm64': 'ngrok-darwin-universal', 'linux-x64': 'ngrok-linux-x64-gnu' };

/**
 * What is wrong with the packed app's native binaries, or nothing.
 * @param {string} unpacked the app's app.asar.unpacked folder
 * @param {string} platform 'win32' | 'darwin' | 'linux'
 * @param {string} arch 'x64' | 'arm64'
 * @returns {string[]}
 */
function nativeBinaryProblems(unpacked, platform, arch) {
  const target = `${platform}-${arch}`;
  const problems = [];
  const prebuilds = join(unpacked, 'node_modules', 'better-sqlite3', 'prebuilds');
  const sqlite = existsSync(prebuilds) ? readdirSync(prebuilds).filter((name) => name.endsWith('.node')) : [];
  if (sqlite.length !== 1 || sqlite[0] !== `${target}.node`) problems.push(`better-sqlite3 prebuilds packed: [${sqlite.join(', ')}], expected exactly ${target}.node`);
  const expected = NGROK_PACKAGE[target];
  const scope = join(unpacked, 'node_modules', '@ngrok');
  const ngrok = existsSync(scope) ? readdirSync(scope).filter((name) => name.startsWith('ngrok-') && readdirSync(join(scope, name)).some((file) => file.endsWith('.node'))) : [];
  if (expected === undefined) problems.push(`no known ngrok package for ${target}`);
  else if (ngrok.length !== 1 || ngrok[0] !== expected) {
    problems.push(`@ngrok binaries packed: [${ngrok.join(', ')}], expected exactly ${expected} (build each installer on its own OS after its own npm ci)`);
  }
  return problems;
}

async function afterPack(context) {
  const { Arch } = require('builder-util');
  const platform = context.electronPlatformName;
  const resources = platform === 'darwin' ? join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`, 'Contents', 'Resources') : join(context.appOutDir, 'resources');
  const problems = nativeBinaryProblems(join(resources, 'app.asar.unpacked'), platform, Arch[context.arch]);
  if (problems.length > 0) throw new Error(`the packed app's native binaries are wrong for ${platform}-${Arch[context.arch]}:\n- ${problems.join('\n- ')}`);
}

// electron-builder takes the export named after the option (`afterPack`), else the default one.
exports.afterPack = afterPack;
exports.default = afterPack;
exports.nativeBinaryProblems = nativeBinaryProblems;
