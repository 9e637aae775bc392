// `npm run sandbox -- …`: starts the merchant sandbox, prints its address as one JSON line on stdout,
// logs to stderr (never a key), and stops cleanly on SIGTERM/SIGINT (or when stdin closes, if asked).
import { findNpmLauncher, watchLauncher } from './launcher-watch';
import { parseSandboxArgs, SANDBOX_USAGE, UsageError } from './sandbox-options';
import { startSandbox } from './start-sandbox';

const log = (line: string): void => void process.stderr.write(`[sandbox] ${line}\n`);

async function main(): Promise<void> {
  let options;
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sandbox: ${error.message}\nsee docs/sandbox.md for the options\n`);
      process.exit(2);
    }
    throw error;
  }
  if (options.help === true) {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    process.exit(0);
  }
  const sandbox = await startSandbox(options, log);
  const { baseUrl, controlUrl, controlToken, userId, apiKey, caCertFile } = sandbox;
  process.stdout.write(`${JSON.stringify({ baseUrl, controlUrl, controlToken, userId, apiKey, caCertFile })}\n`);
  log(`OpenAPI at ${baseUrl}, control at ${controlUrl}, time scale ${options.timeScale}`);

  let stopping = false;
  const shutdown = (why: string): void => {
    if (stopping) return;
    stopping = true;
    log(`stopping (${why})`);
    sandbox.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`stop failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  const launcher = findNpmLauncher();
  if (launcher !== null) watchLauncher(launcher, () => shutdown('npm exited'));
  if (options.exitOnStdinClose) {
    process.stdin.on('data', () => undefined);
    process.stdin.once('end', () => shutdown('stdin closed'));
    process.stdin.once('close', () => shutdown('stdin closed'));
  }
}

main().catch((error: unknown) => {
  log(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
