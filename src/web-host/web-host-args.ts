// `npm run web -- [--port N] [--data DIR] [--exports DIR] [--demo] [--renderer DIR] [--exit-on-stdin-close]`, parsed
// strictly: an unknown flag stops start-up rather than running a host that is not the one asked for.
export interface WebHostArgs {
  port: number;
  /** null: a throwaway folder for this run (memory secret store). */
  dataDir: string | null;
  demo: boolean;
  rendererDir: string | null;
  exitOnStdinClose: boolean;
  /** Where exports are written; absent or null: `<data dir>/exports`. */
  exportsDir?: string | null;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const WEB_USAGE = `usage: npm run web -- [--port N] [--data DIR] [--exports DIR] [--demo] [--renderer DIR] [--exit-on-stdin-close]
  --port N      listen on 127.0.0.1:N (default: a free port; the URL is printed as JSON on stdout)
  --data DIR    keep the database and secrets in DIR (needs PROCURE_PASSPHRASE)
  --exports DIR write card exports into DIR (created 0700; default: DIR/exports of the data folder)
  --demo        run the sandbox in this process as the built-in demo merchant
  --renderer DIR  the built renderer (default out/renderer)
PROCURE_PASSPHRASE protects the API key and the card vault key; without it they live in memory for this run only.`;

export function parseWebHostArgs(argv: readonly string[]): WebHostArgs {
  const args: WebHostArgs = { port: 0, dataDir: null, demo: false, rendererDir: null, exitOnStdinClose: false, exportsDir: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag ?? ''} needs a value`);
      return next;
    };
    switch (flag) {
      case '--port': {
        const text = value();
        if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) throw new UsageError('--port takes a whole number from 0 to 65535');
        args.port = Number(text);
        break;
      }
      case '--data':
        args.dataDir = value();
        break;
      case '--exports':
        args.exportsDir = value();
        break;
      case '--renderer':
        args.rendererDir = value();
        break;
      case '--demo':
        args.demo = true;
        break;
      case '--exit-on-stdin-close':
        args.exitOnStdinClose = true;
        break;
      default:
        throw new UsageError(`unknown option ${flag ?? ''}`);
    }
  }
  return args;
}
