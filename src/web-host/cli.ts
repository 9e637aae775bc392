// `npm run web -- [--port N] [--data DIR] [--demo]`: the app in a browser. Prints one JSON line on
// stdout once listening: {"url": "http://127.0.0.1:PORT/#k=SECRET"}, a one-time URL that opens one
// browser session (plus "demoControlUrl" and "demoControlToken" with --demo). Each line read on stdin
// (Enter in the terminal) prints another such line with a fresh one-time URL, for another browser or
// after the browser was closed. Logs go to stderr (redacted, never a key or a launch secret). Stops on
// SIGTERM/SIGINT, or when stdin closes if --exit-on-stdin-close (so a test that dies cannot leave a
// host behind).
import { createInterface } from 'node:readline';
import { RedactingLogger, streamSink } from '../core';
import { RendererNotBuiltError } from './renderer-files';
import { runWebHost, type RunningWebHost } from './run-web-host';
import { parseWebHostArgs, UsageError, WEB_USAGE } from './web-host-args';

const notice = (line: string): void => void process.stderr.write(`[web] ${line}\n`);

async function main(): Promise<void> {
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
  let host: RunningWebHost;
  try {
    host = await runWebHost({ args, passphrase: process.env['PROCURE_PASSPHRASE'], logger, notice });
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

  let stopping = false;
  const shutdown = (why: string): void => {
    if (stopping) return;
    stopping = true;
    notice(`stopping (${why})`);
    host.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        notice(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  if (args.exitOnStdinClose) {
    process.stdin.once('end', () => shutdown('stdin closed'));
    process.stdin.once('close', () => shutdown('stdin closed'));
  }
}

main().catch((error: unknown) => {
  notice(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
