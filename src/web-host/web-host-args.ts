// `npm run web -- [--port N] [--data DIR] [--exports DIR] [--demo] [--renderer DIR] [--exit-on-stdin-close]`, parsed
// strictly with node:util's parseArgs: an unknown flag stops start-up rather than running a host that
// is not the one asked for.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

export interface WebHostArgs {
  port: number;
  /** null: a throwaway folder for this run (memory secret store). */
  dataDir: string | null;
  demo: boolean;
  rendererDir: string | null;
  exitOnStdinClose: boolean;
  /** Where exports wait for their download; absent or null: `<data dir>/exports`. */
  exportsDir?: string | null;
  /** --help: print WEB_USAGE and start nothing. */
  help?: boolean;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const WEB_USAGE = `usage: npm run web -- [--port N] [--data DIR] [--exports DIR] [--demo] [--renderer DIR] [--exit-on-stdin-close]
  --help        print this text
  --port N      listen on 127.0.0.1:N (default: a free port; the URL is printed as JSON on stdout)
  --data DIR    keep the database and secrets in DIR (needs PROCURE_PASSPHRASE)
  --exports DIR stage card exports in DIR until the browser downloads them (created 0700; default: DIR/exports of the data folder)
  --demo        run the sandbox in this process as the built-in demo merchant
  --renderer DIR  the built renderer (default out/renderer)
PROCURE_PASSPHRASE protects the API key and the card vault key; without it they live in memory for this run only.
Ctrl+C stops it, with its core process, and removes the temporary data folder of a run without --data.`;

const OPTIONS = {
  port: { type: 'string' },
  data: { type: 'string' },
  exports: { type: 'string' },
  renderer: { type: 'string' },
  demo: { type: 'boolean' },
  'exit-on-stdin-close': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

function isKnownOption(name: string): name is keyof typeof OPTIONS {
  return Object.hasOwn(OPTIONS, name);
}

export function parseWebHostArgs(argv: readonly string[]): WebHostArgs {
  const args: WebHostArgs = { port: 0, dataDir: null, demo: false, rendererDir: null, exitOnStdinClose: false, exportsDir: null };
  // Not strict: the tokens are checked here, so the refusals keep this host's words.
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`unknown option ${token.value}`);
    if (token.kind === 'option-terminator') throw new UsageError('unknown option --');
    const { name, rawName } = token;
    if (!isKnownOption(name)) throw new UsageError(`unknown option ${rawName}`);
    if (OPTIONS[name].type === 'boolean' && token.value !== undefined) throw new UsageError(`${rawName} takes no value`);
    const value = (): string => {
      // A value that looks like the next option means this one's value was left out.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) throw new UsageError(`${rawName} needs a value`);
      return token.value;
    };
    switch (name) {
      case 'port': {
        const text = value();
        if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) throw new UsageError('--port takes a whole number from 0 to 65535');
        args.port = Number(text);
        break;
      }
      case 'data':
        args.dataDir = value();
        break;
      case 'exports':
        args.exportsDir = value();
        break;
      case 'renderer':
        args.rendererDir = value();
        break;
      case 'demo':
        args.demo = true;
        break;
      case 'exit-on-stdin-close':
        args.exitOnStdinClose = true;
        break;
      case 'help':
        args.help = true;
        break;
    }
  }
  return args;
}
