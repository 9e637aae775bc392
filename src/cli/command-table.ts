// Every command of `npm run cli`, one entry each: the words that name it, its synopsis, its --help text,
// the options it takes and the function that runs it. cli.ts dispatches through this table only, so
// adding a command is one entry here (and its function in one file per command group under commands/).
// The options are checked here before a command runs: anything else is a usage error (exit 2), never
// silently ignored. --json and --help are taken by every command. A new entry lists every option and
// flag its run reads (a new option name also goes into cli-args.ts OPTIONS), and README's command line
// section names the command and its options (test/cli/cli-help.test.ts walks this table and checks both).
import type { ParsedArgs } from './cli-args';
import type { CliContext, OwnedRef } from './cli-context';
import { batchCommand } from './commands/batch-command';
import { aftersalesListCommand, aftersalesOpenCommand, aftersalesSendCommand, aftersalesShowCommand } from './commands/aftersales-commands';
import { searchCommand, syncCommand } from './commands/catalog-commands';
import { connectCommand } from './commands/connect-command';
import { ngrokAuthtokenCommand } from './commands/ngrok-authtoken-command';
import { orderConfirmCommand, orderWithdrawCommand } from './commands/order-confirm-commands';
import { orderCreateCommand } from './commands/order-create-command';
import { orderRetryCommand } from './commands/order-retry-command';
import { orderShowCommand, ordersCommand } from './commands/order-read-commands';
import { profilesAddCommand, profilesListCommand, profilesRemoveCommand } from './commands/profiles-commands';
import { reconcileCommand } from './commands/reconcile-command';
import { reportCommand } from './commands/report-command';
import { runCommand } from './commands/run-command';
import { vaultExportCommand } from './commands/vault-export-command';
import { vaultListCommand, vaultRevealCommand } from './commands/vault-commands';

export interface CliCommand {
  /** The words that name it, e.g. ['vault', 'reveal']. */
  readonly words: readonly string[];
  /** What follows the words, e.g. 'REF [--card N] --yes [--json]'. */
  readonly synopsis: string;
  /** What it does, its options and the exit codes it adds to the common ones; printed by --help. */
  readonly help: string;
  /** The options and flags it takes besides --json and --help (without the dashes). */
  readonly options: readonly string[];
  /** The order, case or batch it is about: without --profile, the profile holding it runs it (cli-context.ts). */
  readonly owns?: (args: ParsedArgs) => OwnedRef | null;
  /** Runs it; the exit code (nothing: 0). */
  readonly run: (context: CliContext, args: ParsedArgs) => Promise<number | void> | number | void;
}

const orderWord = (args: ParsedArgs): OwnedRef | null => (args.words[2] === undefined ? null : { kind: 'order', ref: args.words[2] });
const caseWord = (args: ParsedArgs): OwnedRef | null => (args.words[2] === undefined ? null : { kind: 'case', ref: args.words[2] });
/** The first --order (a repeated one is refused by the command itself). */
const orderOption = (args: ParsedArgs): OwnedRef | null => {
  const ref = args.options.get('order')?.[0];
  return ref === undefined ? null : { kind: 'order', ref };
};

export const COMMON_EXIT_CODES =
  'exit codes: 0 ok, 1 other failure, 2 bad usage or a reference unknown here, 3 the merchant refused (its code is printed) or the order waits for you, 4 network trouble, the merchant\'s answers inconsistent (a listing changing while paged, wherever met) or an outcome not yet known (kept; `run` finds out), 5 cards of a refunded order asked for without the acknowledgement, 6 reconcile found differences or could not check the balance, 7 the merchant answered an order 500 too often (kept; nothing more is sent until order retry)';

export const COMMANDS: readonly CliCommand[] = [
  {
    words: ['profiles', 'list'],
    synopsis: '[--json]',
    help: 'The merchant profiles of this data folder: id, name, whether it is the active one, whether it is connected, its base URL and user ID (never its key). Every command takes --profile NAME (a name in any case, or an id such as p2); without it the active profile, or for a command about one order, case or batch the profile that holds it.',
    options: [],
    run: profilesListCommand,
  },
  {
    words: ['profiles', 'add'],
    synopsis: 'NAME [--json]',
    help: 'Adds a merchant profile (not connected: `connect --profile NAME …` gives it its merchant). Names are unique regardless of case. Exit 2 for a name taken or not usable.',
    options: [],
    run: profilesAddCommand,
  },
  {
    words: ['profiles', 'remove'],
    synopsis: 'NAME --yes [--discard-unexported-cards] [--json]',
    help: "Removes a merchant profile with its database, cards and key on this machine. Refused without --yes (exit 2); while its work is open, with the counts (orders not yet accepted or not finished, refunds, after-sales messages: exit 3); while its vault holds cards never exported, unless --discard-unexported-cards (exit 2; `vault export --profile NAME --not-exported` first); the last profile (exit 2).",
    options: ['yes', 'discard-unexported-cards'],
    run: profilesRemoveCommand,
  },
  {
    words: ['connect'],
    synopsis: '--base-url URL --user-id ID [--ca-cert FILE]',
    help: 'Checks the credentials with the merchant and stores them. The API key comes from PROCURE_API_KEY or standard input, never argv. Prints the account as JSON.',
    options: ['base-url', 'user-id', 'ca-cert'],
    run: connectCommand,
  },
  {
    words: ['sync'],
    synopsis: '[--templates]',
    help: 'Details of every product into the offline cache (progress on stderr, a JSON summary on stdout); order templates only for watched products and variants ordered in the last 30 days. --templates: one for every variant.',
    options: ['templates'],
    run: syncCommand,
  },
  {
    words: ['search'],
    synopsis: 'TEXT [--json]',
    help: 'Searches the offline cache (no merchant needed).',
    options: [],
    run: searchCommand,
  },
  {
    words: ['order', 'create'],
    synopsis: '--product N [--variant N] --units N [--entry fieldRef=value …] [--max-price YUAN] [--callback-url URL] [--queue-only] [--fallback] [--json]',
    help: 'Records the order with the unit price you confirm (--max-price; without it the cached price, printed), then sends it and waits for the outcome. A field with choices takes the choice\'s name or its code (--entry zone=苹果QQ区 or zone=ios-qq); a value that fits no choice, or several, is refused with the choices named (exit 2). A higher price at send time, a product that cannot be supplied or a refused key exits 3 and charges nothing; the merchant unreachable exits 4 (kept; `run` sends it); the merchant answering 500 too often (3 times per order, creates and look-ups together) exits 7 with its requestIds (kept; nothing more is sent until `order retry REF`). --queue-only records without sending. --fallback: when the variant is linked and its link has a fallback rule, and this merchant cannot supply it (or asks above the rule\'s limit), the order goes to the rule\'s choice at that merchant\'s cached price (never above the limit; said on stderr); exit 3 when no merchant of the rule qualifies.',
    options: ['product', 'variant', 'units', 'entry', 'callback-url', 'max-price', 'queue-only', 'fallback'],
    run: orderCreateCommand,
  },
  {
    words: ['order', 'confirm'],
    owns: orderWord,
    synopsis: 'REF [--units N] [--entry fieldRef=value …] [--max-price YUAN]',
    help: 'After 409101 (the order form changed) or a price/stock park: checks the order again and sends the same ref.',
    options: ['units', 'entry', 'max-price'],
    run: orderConfirmCommand,
  },
  {
    words: ['order', 'withdraw'],
    owns: orderWord,
    synopsis: 'REF',
    help: 'Gives up an order the merchant does not hold (an unknown outcome is looked up first). Exit 0 withdrawn, 3 the merchant has the order, 4 still being checked.',
    options: [],
    run: orderWithdrawCommand,
  },
  {
    words: ['order', 'retry'],
    owns: orderWord,
    synopsis: 'REF',
    help: 'After the merchant failed an order too often (exit 7, state merchant_failing): starts its count again, looks it up by its ref first and sends the same ref only if the merchant has none (never charged twice). Exits as order create does (7 again if the merchant still fails).',
    options: [],
    run: orderRetryCommand,
  },
  {
    words: ['order', 'show'],
    owns: orderWord,
    synopsis: 'REF [--json]',
    help: 'What this machine knows of one order, offline; card numbers masked.',
    options: [],
    run: orderShowCommand,
  },
  {
    words: ['orders'],
    synopsis: '[--json]',
    help: 'Every order on this machine, offline.',
    options: [],
    run: ordersCommand,
  },
  {
    words: ['run'],
    synopsis: '[--until-idle] [--webhook-port N] [--tunnel loopback|ngrok|cloudflared|url:URL]',
    help: 'Sends queued orders and after-sales messages and tracks orders and cases until SIGTERM/SIGINT (--until-idle: until no order waits to be sent). With a webhook flag it also receives webhooks and prints the callback URL as one JSON line.',
    options: ['until-idle', 'webhook-port', 'tunnel'],
    run: runCommand,
  },
  {
    words: ['tunnel', 'ngrok-authtoken'],
    synopsis: '',
    help: 'Stores the ngrok authtoken (from PROCURE_NGROK_AUTHTOKEN or standard input, never argv) for `run --tunnel ngrok`.',
    options: [],
    run: ngrokAuthtokenCommand,
  },
  {
    words: ['vault', 'list'],
    owns: orderOption,
    synopsis: '[--order REF | --product N] [--json]',
    help: 'The cards in the vault, masked exactly as the vault screen masks them (the last digits of the number, never the password); offline, nothing audited. --json: {total, cards:[{clientOrderRef, platformOrderRef, card, seq, cardNoMasked, refundMark, …}]}.',
    options: ['order', 'product'],
    run: vaultListCommand,
  },
  {
    words: ['vault', 'reveal'],
    owns: orderWord,
    synopsis: 'REF [--card N] --yes [--acknowledge-refunded] [--json]',
    help: 'Prints the plain card codes of one order (--card N: only card #N, numbered as the vault shows them) and writes one `reveal` row to the audit log, as the app does. Refused without --yes (exit 2). Cards of an order the merchant refunded or cancelled need --acknowledge-refunded (else exit 5, nothing revealed).',
    options: ['card', 'yes', 'acknowledge-refunded'],
    run: vaultRevealCommand,
  },
  {
    words: ['vault', 'export'],
    owns: orderOption,
    synopsis: '--out FILE [--format xlsx|csv-zip|txt-zip [--lines card-no|card-no-password]] (--order REF … --product N … | --from YYYY-MM-DD --to YYYY-MM-DD | --not-exported) [--include-refunded] [--language zh-CN|en] [--overwrite] [--json]',
    help: 'Exports the selected cards as the app does: an encrypted XLSX (default), a CSV in an AES-256 ZIP, or (txt-zip) a TXT of codes in an AES-256 ZIP as shops import them (--lines card-no: one card number per line, the default; card-no-password: "卡号 卡密", one space between; UTF-8, LF; codes with a line break, a control character or a space it cannot carry: exit 2, nothing written), the cards marked exported and one `export` row in the audit log. The password comes from PROCURE_EXPORT_PASSWORD or the first line of standard input, never argv, and must pass the app\'s password policy (else exit 2). --order and --product may repeat and combine (their cards, as cards picked in the vault); --from/--to: cards received on those local days, both included. Cards of refunded orders need --include-refunded (else exit 5, nothing written). An existing file is kept unless --overwrite.',
    options: ['out', 'format', 'lines', 'order', 'product', 'from', 'to', 'not-exported', 'include-refunded', 'language', 'overwrite'],
    run: vaultExportCommand,
  },
  {
    words: ['aftersales', 'list'],
    owns: orderOption,
    synopsis: '[--order REF] [--state active|done|STATE] [--unread] [--json]',
    help: 'The after-sales cases stored here, latest activity first; offline.',
    options: ['order', 'state', 'unread'],
    run: aftersalesListCommand,
  },
  {
    words: ['aftersales', 'show'],
    owns: caseWord,
    synopsis: 'CASE [--json]',
    help: 'One stored case with its messages and their delivery; offline.',
    options: [],
    run: aftersalesShowCommand,
  },
  {
    words: ['aftersales', 'open'],
    owns: orderWord,
    synopsis: 'REF --type cardInvalid|cardUsed|notReceived|wrongAmount|other --text TEXT [--image URL …] [--json]',
    help: 'Opens a case for an order, checked as the app checks it (the text at most 500 characters, at most 5 public https image URLs, the order must allow after-sales). Input that breaks a rule exits 2, the merchant\'s refusal 3, no answer 4 (the same request is sent again by `run`).',
    options: ['type', 'text', 'image'],
    run: aftersalesOpenCommand,
  },
  {
    words: ['aftersales', 'send'],
    owns: caseWord,
    synopsis: 'CASE --text TEXT [--image URL …] [--json]',
    help: 'Sends a message on a case: stored with its clientMessageRef before the first send, so a retry never posts it twice. Exit 0 sent, 2 input that breaks a rule or an unknown case, 3 the merchant refused it or the case takes no more messages, 4 no answer (kept; `run` sends it with the same ref).',
    options: ['text', 'image'],
    run: aftersalesSendCommand,
  },
  {
    words: ['batch'],
    owns: (args) => {
      const retry = args.options.get('retry')?.[0];
      return retry === undefined ? null : { kind: 'batch', ref: retry };
    },
    synopsis: 'FILE --product N [--variant N] [--map column=field …] [--units N] [--max-price YUAN] [--yes] [--allow-duplicates] [--mark-invalid-rows] [--retry BATCH] [--results PATH] [--fallback] [--json]',
    help: 'Orders from a CSV (UTF-8, UTF-8 with BOM, GB18030) or XLSX file, one order per row, through the app\'s own batch path. A CSV holding bytes that are not valid in its encoding is refused (exit 2) naming the line and column of the first and how many rows hold them; --mark-invalid-rows reads it anyway with those rows marked as errors, never ordered (a header with invalid bytes is always refused). --map names the column of each template field ("units" for the units column; guessed from the header, then remembered per product). Without --yes it only previews: every row checked, nothing written or sent. With --yes every valid row becomes one order (all recorded before any is sent) at the unit price you confirm (--max-price; without it the cached price), sent at the pace the quota allows, and the command waits for each row. Rows with the same entries as an earlier row, and a file already placed (the same bytes, or the same rows for the product within 7 days, named with when and which batch), are refused unless --allow-duplicates places them anyway. --retry BATCH sends the failed rows of that batch again (FILE must be its own file); --results PATH writes the file\'s rows with status, clientOrderRef, platformOrderRef and error (.csv or .xlsx). --fallback: when the variant is linked and its link has a fallback rule, and this merchant cannot supply the batch (or asks above the rule\'s limit), the batch goes to the rule\'s choice at that merchant\'s cached price; the preview, the status, the results file and --json name that merchant on every row and total per merchant, and --yes is your OK to pay it; exit 3 when no merchant of the rule qualifies. Exit 0 every row fine or accepted, 2 bad usage or an unreadable file, 3 rows with errors, duplicates not allowed, refused, failed or waiting on a price rise, 4 the merchant away or rows still sending (kept; `run` sends them).',
    options: ['product', 'variant', 'map', 'units', 'max-price', 'yes', 'allow-duplicates', 'mark-invalid-rows', 'retry', 'results', 'fallback'],
    run: batchCommand,
  },
  {
    words: ['reconcile'],
    synopsis: '[--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]',
    help: "Compares a range of days (this machine's time zone; yesterday by default) with the merchant: its order list, each order's state, amount, units, refunds and cards, and the balance at the range's start and end. Progress on stderr, the report on stdout (--json: one document, money in fen). Exit 0 nothing differs, 6 the run finished and found differences, 2 a bad day, 4 no answer or a list that moved in a way no rule explains (run again: it resumes at the next page).",
    options: ['from', 'to'],
    run: reconcileCommand,
  },
  {
    words: ['report', 'spend'],
    synopsis: '[--from YYYY-MM-DD] [--to YYYY-MM-DD] [--product N] [--json]',
    help: "The dashboard's spend report from what this machine knows (offline): charged, refunded and net spend, success rate, median delivery, per day, category and product. Local days of this process's time zone (TZ); without --from/--to the last 30 days up to today; money in fen in --json. Exit 2 for a bad day, a reversed or too long range.",
    options: ['from', 'to', 'product'],
    run: reportCommand,
  },
];

/** The command the words name (the longest match: `order show REF` is `order show`), or null. */
export function findCommand(words: readonly string[]): CliCommand | null {
  let best: CliCommand | null = null;
  for (const command of COMMANDS) {
    const matches = command.words.every((word, i) => words[i] === word);
    if (matches && (best === null || command.words.length > best.words.length)) best = command;
  }
  return best;
}

/** The commands whose words begin with these (`vault` names every vault command). */
export function commandsUnder(words: readonly string[]): CliCommand[] {
  return COMMANDS.filter((command) => words.length > 0 && words.every((word, i) => command.words[i] === word));
}

export function synopsisOf(command: CliCommand): string {
  return `${command.words.join(' ')}${command.synopsis === '' ? '' : ` ${command.synopsis}`}`;
}
