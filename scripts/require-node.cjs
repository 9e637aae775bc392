// The first step of every npm script: a Node older than .node-version stops here with one sentence
// saying what to install, instead of failing later (a core process that cannot load its SQLite module
// and is restarted forever). Plain CommonJS without dependencies, so that any old Node runs it.
'use strict';
const { readFileSync } = require('fs');
const { join } = require('path');

const required = Number(readFileSync(join(__dirname, '..', '.node-version'), 'utf8').trim().split('.')[0]);
const running = Number(process.versions.node.split('.')[0]);

if (!(running >= required)) {
  // The one-line install each platform's contributors already have (docs/developers.md).
  const how = { darwin: `brew install node@${required}`, win32: 'winget install OpenJS.NodeJS.LTS' }[process.platform] || `nvm install ${required}`;
  process.stderr.write(
    `Procure Desk needs Node.js ${required} or newer, but this is Node.js ${process.versions.node} (${process.execPath}): ` +
      `install Node.js ${required} LTS (https://nodejs.org/, or \`${how}\`) and run the command again.\n` +
      `采购台需要 Node.js ${required} 或更新版本，当前是 Node.js ${process.versions.node}（${process.execPath}）：` +
      `请安装 Node.js ${required} LTS（https://nodejs.org/，或 \`${how}\`）后重新运行该命令。\n`,
  );
  process.exit(1);
}
