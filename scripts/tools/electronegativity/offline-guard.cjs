// Loaded first in the scan's own process (run-scan.cjs): the scan judges local files only, so any
// connection it opens is a fetch left enabled (Electronegativity fetches translations and Electron's
// release list by default). The first one ends the process with exit code 3, before a byte is sent.
'use strict';
const diagnosticsChannel = require('node:diagnostics_channel');

const OFFLINE_VIOLATION_EXIT = 3;

function refuse(what) {
  process.stderr.write(`electronegativity: the scan tried to reach the network (${what}); it must run offline\n`);
  process.exit(OFFLINE_VIOLATION_EXIT);
}

diagnosticsChannel.subscribe('http.client.request.start', ({ request }) => refuse(`${request.method} ${request.protocol}//${request.host}${request.path}`));
diagnosticsChannel.subscribe('net.client.socket', () => refuse('a socket'));
globalThis.fetch = () => refuse('fetch()');

module.exports = { OFFLINE_VIOLATION_EXIT };
