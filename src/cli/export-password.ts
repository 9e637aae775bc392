// The export password of `vault export`: from PROCURE_EXPORT_PASSWORD, else the first line of standard
// input (a person typing it sees no echo), never from argv (cli-args.ts refuses --password). It is
// taken as typed (only the line end is dropped: a space is part of a password), registered with the
// redacting logger at once, and checked by the app's one password policy inside the exporter.
import type { CliContext } from './cli-context';

export const EXPORT_PASSWORD_ENV = 'PROCURE_EXPORT_PASSWORD';

/** One line from a terminal without echoing it (raw mode), ended by Enter; Ctrl-C or Ctrl-D ends it empty. */
async function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Raw (no echo) before the prompt: nothing typed after seeing it is ever shown.
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  stdin.setEncoding('utf8');
  let typed = '';
  try {
    for await (const chunk of stdin) {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return typed;
        if (char === '\u0003' || char === '\u0004') return '';
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    }
    return typed;
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}

async function readPipedLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return (text.split('\n')[0] ?? '').replace(/\r$/, '');
}

export async function exportPassword(context: CliContext): Promise<string> {
  const fromEnv = process.env[EXPORT_PASSWORD_ENV];
  const password = fromEnv !== undefined && fromEnv !== '' ? fromEnv : process.stdin.isTTY ? await readHidden('Export password: ') : await readPipedLine();
  if (password !== '') context.logger.registerSecret(password);
  return password;
}
