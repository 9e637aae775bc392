// `npm run web -- [--port N] [--data DIR] [--demo]`: the app in a browser. Prints one JSON line on
// stdout once listening: {"url": "http://127.0.0.1:PORT/#k=SECRET"}, a one-time URL that opens one
// browser session (plus "demoControlUrl" and "demoControlToken" with --demo). Each line read on stdin
// (Enter in the terminal) prints another such line with a fresh one-time URL, for another browser or
// after the browser was closed. Logs go to stderr (redacted, never a key or a launch secret). Stops,
// with core and its temporary folder, on Ctrl+C, SIGTERM, SIGHUP, its parent's or npm's death, or when
// stdin closes if --exit-on-stdin-close (host-lifetime.ts).
import { createInterface } from 'node:readline';
import { RedactingLogger, streamSink } from '../core';
import { RendererNotBuiltError } from './renderer-files';
import { holdHostLifetime } from './host-lifetime';
import { runWebHost, type RunningWebHost } from './run-web-host';
import { parseWebHostArgs, UsageError, WEB_USAGE } from './web-host-args';

const notice = (line: string): void => void process.stderr.write(`[web] ${line}\n`);

async function main(): Promise<void> {
  // A closed terminal (its window shut, or npm above us was the session leader and ended) makes every
  // write fail (EIO, EPIPE): the stop must still run to its end, so lost output is dropped, not thrown.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  let args;
  try {
    args = parseWebHostArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`web: ${error.message}\n${WEB_USAGE}\n`);
    process.exit(2);
  }
  if (args.help === true) {
    process.stdout.write(`${WEB_USAGE}\n`);
    process.exit(0);
  }
  const logger = new RedactingLogger({ sink: streamSink(process.stderr), level: 'info' });
  const starting = runWebHost({ args, passphrase: process.env['PROCURE_PASSPHRASE'], logger, notice });
  let started: RunningWebHost | null = null;
  // From now on: a Ctrl+C during start-up waits for the start, then stops what it opened (a failed
  // start has closed everything itself).
  holdHostLifetime({
    stop: () => starting.then((running) => running.stop(), () => undefined),
    abandon: () => started?.abandon(),
    notice,
    exitOnStdinClose: args.exitOnStdinClose,
  });
  let host: RunningWebHost;
  try {
    host = await starting;
    started = host;
  } catch (error) {
    if (error instanceof UsageError || error instanceof RendererNotBuiltError) {
      process.stderr.write(`web: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const demo = host.demoControlUrl === null ? {} : { demoControlUrl: host.demoControlUrl, demoControlToken: host.demoControlToken };
  process.stdout.write(`${JSON.stringify({ url: host.issueLaunchUrl(), ...demo })}\n`);
  notice('open the URL above in a browser on this machine; it works once. Press Enter here for a new one (another browser, or after closing this one)');
  // Every line on stdin asks for one more one-time URL; the secret goes to stdout only, never to the log.
  const commands = createInterface({ input: process.stdin, terminal: false });
  commands.on('line', () => {
    process.stdout.write(`${JSON.stringify({ url: host.issueLaunchUrl() })}\n`);
  });

  notice(`to stop it: press Ctrl+C here${host.temporaryDataDir === null ? '' : ` (the temporary folder ${host.temporaryDataDir} is removed)`}`);
}

main().catch((error: unknown) => {
  notice(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
