// Opens core for one CLI run: the passphrase secret file and the database in the data folder, a
// redacting log file beside them. The passphrase and the API key come from the environment, standard
// input or the folder's key file (cli-passphrase.ts), never from argv (argv is visible to every
// process on the machine).
import { join } from 'node:path';
import { holds, openDesk, type Core, type Desk, type ProfileRecord } from '../core';
import { RedactingLogger } from '../core';
import { createRotatingFileSink, type RotatingFileSink } from '../core';
import { createPrivateFile, securePrivateFile, securePrivateFolder } from '../core';
import { PassphraseSecretStore } from '../core';
import type { SecretStore } from '../core';
import { cliPassphrase, SECRET_FILE_NAME } from './cli-passphrase';

export interface CliContext {
  /** Every merchant profile of the data folder (contract §15). */
  desk: Desk;
  /** The profile this run works with: --profile's, else the active one. */
  profile: ProfileRecord;
  /** That profile's core. */
  core: Core;
  /** --profile was given: the run never looks at another profile. */
  profileChosen: boolean;
  logger: RedactingLogger;
  /** The store holding the API key, for other secrets the user hands over (the ngrok authtoken). */
  secrets: SecretStore;
  /** The log file; closed (written out) after core at the end of the run. */
  logFile: RotatingFileSink;
}

/** A wait the merchant imposes beyond 30 s ends a command at once, naming the time: a script must not sit silent. */
export const COMMAND_MAX_WAIT_MS = 30_000;

/** The first line of standard input, trimmed; `prompt` is said on stderr when a person types it. */
export async function readStdinLine(prompt = 'API key: '): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(prompt);
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return (text.split('\n')[0] ?? '').trim();
}

export async function openCliContext(dataDir: string, profileName: string | null = null): Promise<CliContext> {
  securePrivateFolder(dataDir);
  const { passphrase, notice } = cliPassphrase(dataDir, process.env['PROCURE_PASSPHRASE']);
  if (notice !== null) process.stderr.write(`${notice}\n`);
  const logFile = join(dataDir, 'procure-desk.log');
  // 0600 on every start: the sink's mode applies only when it creates the file.
  createPrivateFile(logFile);
  securePrivateFile(join(dataDir, SECRET_FILE_NAME));
  const logSink = createRotatingFileSink({ path: logFile, onError: (error) => process.stderr.write(`warning: the log file could not be written (${error instanceof Error ? error.message : 'unknown'})\n`) });
  const logger = new RedactingLogger({ sink: logSink.sink, level: 'info' });
  try {
    const secrets = await PassphraseSecretStore.open({ filePath: join(dataDir, SECRET_FILE_NAME), passphrase });
    // A command blocks at most this long for a merchant's Retry-After; a longer one ends it with exit 4.
    const desk = openDesk({ dataDir, secrets, logger, merchantMaxWaitMs: COMMAND_MAX_WAIT_MS });
    try {
      const chosen = profileName === null ? desk.profiles.activeId() : desk.profiles.lookup(profileName).id;
      if (chosen === null) throw new Error('the data folder has no merchant profile');
      const opened = await desk.open(chosen);
      return { desk, profile: opened.record, core: opened.core, profileChosen: profileName !== null, logger, secrets: opened.secrets, logFile: logSink };
    } catch (error) {
      await desk.close();
      throw error;
    }
  } catch (error) {
    // What was logged on the way still reaches the file before the run ends.
    await logSink.close();
    throw error;
  }
}

/** A reference a command names (an order, a case, a batch): the profile holding it answers. */
export interface OwnedRef {
  readonly kind: 'order' | 'case' | 'batch';
  readonly ref: string;
}

/**
 * Without --profile, a command about one order (case, batch) works with the profile that holds it,
 * the active one first (a case number is the merchant's, so two merchants may share one): a ref
 * copied from `orders` of another merchant needs no --profile. Nobody holds it: the active profile,
 * whose command then says it does not know the ref.
 */
export async function contextForRef(context: CliContext, owned: OwnedRef | null): Promise<CliContext> {
  if (context.profileChosen || owned === null || owned.ref === '' || holds(context.core.db, owned)) return context;
  for (const record of context.desk.profiles.list()) {
    if (record.id === context.profile.id) continue;
    const candidate = await context.desk.open(record.id);
    if (holds(candidate.core.db, owned)) return { ...context, profile: candidate.record, core: candidate.core, secrets: candidate.secrets };
  }
  return context;
}
