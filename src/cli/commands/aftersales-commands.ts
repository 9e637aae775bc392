// After-sales from the command line, over core's after-sales service and read views (the app's
// aftersales.* channels use the same):
//   aftersales list [--order REF] [--state S] [--unread] [--json]   stored cases, offline
//   aftersales show CASE [--json]                                   one case with its chat, offline
//   aftersales open REF --type T --text TEXT [--image URL …] [--json]
//       checked by the shared rules (shared/aftersale-rules.ts) and the order's allowedActions (read
//       again from the merchant before a refusal) in core; an answer that did not come is sent again
//       with the same content by `run` (exit 4).
//   aftersales send CASE --text TEXT [--image URL …] [--json]
//       the message is stored with its clientMessageRef before the first send, then the outbox sends
//       it (with any older message of the case first); a merchant refusal exits 3, no answer exits 4
//       and the message stays queued under the same ref for `run` or the app.
import type { MerchantServices } from '../../core';
import { CaseOpenPendingError, createCaseViews, getOutboxMessage } from '../../core';
import { caseListQuerySchema, type CaseDetail } from '../../shared/ipc/views/aftersales';
import { optionOf, requiredOption, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { EXIT } from '../exit-codes';
import { printJson, printLine, progress } from '../output';
import { formatStamp, runtimeTimeZone } from '../../shared/date-time';

/** How long `aftersales send` waits for the merchant's answer before leaving the message to `run`. */
const SEND_WAIT_MS = 30_000;

function caseRefOf(args: ParsedArgs, command: string): string {
  const ref = args.words[2];
  if (ref === undefined) throw new UsageError(`aftersales ${command} needs a platformCaseRef`);
  if (args.words.length > 3) throw new UsageError(`aftersales ${command} takes one reference; put text in --text "…"`);
  return ref;
}

function detailOf(context: CliContext, ref: string): CaseDetail {
  const detail = createCaseViews(context.core.db).detail(ref);
  if (detail === null) throw new UsageError(`no after-sales case ${ref} on this machine`);
  return detail;
}

function printCase(detail: CaseDetail, json: boolean): void {
  if (json) {
    printJson(detail);
    return;
  }
  printLine(`${detail.platformCaseRef}\torder ${detail.platformOrderRef}\t${detail.state}\t${detail.category}\t${detail.description}`);
  for (const m of detail.messages) {
    const delivery = m.delivery === 'sent' ? '' : ` [${m.delivery}${m.lastErrorCode === null ? '' : ` ${m.lastErrorCode}`}]`;
    printLine(`${formatStamp(m.createdAt * 1000, runtimeTimeZone())}\t${m.sender}${delivery}\t${m.text}${m.images.length > 0 ? `\t(${m.images.length} image${m.images.length === 1 ? '' : 's'})` : ''}`);
  }
}

export function aftersalesListCommand(context: CliContext, args: ParsedArgs): void {
  if (args.words.length > 2) throw new UsageError('aftersales list takes no reference; use --order REF');
  const parsed = caseListQuerySchema.safeParse({ state: optionOf(args, 'state'), clientOrderRef: optionOf(args, 'order'), unreadOnly: args.flags.has('unread') ? true : undefined });
  if (!parsed.success) throw new UsageError(`--order takes a clientOrderRef (o_…), --state a state or active/done: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const rows = createCaseViews(context.core.db).list(parsed.data);
  if (args.flags.has('json')) {
    printJson(rows);
    return;
  }
  for (const row of rows) printLine(`${row.platformCaseRef}\torder ${row.platformOrderRef}\t${row.state}\t${row.category}\tunread ${row.unread}${row.unsent > 0 ? `\tunsent ${row.unsent}` : ''}\t${row.lastMessagePreview ?? row.description}`);
  printLine(`${rows.length} case${rows.length === 1 ? '' : 's'}`);
}

export function aftersalesShowCommand(context: CliContext, args: ParsedArgs): void {
  printCase(detailOf(context, caseRefOf(args, 'show')), args.flags.has('json'));
}

export async function aftersalesOpenCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const orderRef = args.words[2];
  if (orderRef === undefined) throw new UsageError('aftersales open needs the clientOrderRef of the order');
  if (args.words.length > 3) throw new UsageError('aftersales open takes one reference; put the description in --text "…"');
  const category = requiredOption(args, 'type');
  const description = requiredOption(args, 'text');
  const images = args.options.get('image') ?? [];
  const services = await context.core.merchant();
  try {
    const ref = await services.aftersales.open({ clientOrderRef: orderRef, category, description, images });
    // Core reads the order again in the background (its allowedActions changed); this process ends
    // now, so it waits for that read: the next command sees the order as the merchant has it.
    await services.tracker.refresh(orderRef).catch((error: unknown) => progress(`the order could not be read again (${error instanceof Error ? context.logger.redact(error.message) : 'unknown'}); run or the next command does`));
    printCase(detailOf(context, ref), args.flags.has('json'));
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof CaseOpenPendingError)) throw error;
    // The merchant may have opened it: kept, and sent again with the same content until known.
    progress(error.message);
    printJson({ clientOrderRef: orderRef, outcome: 'unknown', requestId: error.requestId });
    return EXIT.network;
  }
}

/** Runs the outbox until this message is sent or refused, the merchant is away, or the wait runs out. */
async function deliver(context: CliContext, services: MerchantServices, clientMessageRef: string): Promise<number> {
  const { core } = context;
  const deadline = core.clock.nowMs() + SEND_WAIT_MS;
  for (;;) {
    await services.aftersales.runOnce();
    const message = getOutboxMessage(core.db, clientMessageRef);
    if (message === null) throw new Error(`message ${clientMessageRef} vanished from the outbox`);
    const out = { clientMessageRef, platformCaseRef: message.platformCaseRef, delivery: message.status, messageRef: message.messageRef, code: message.lastErrorCode, requestId: message.lastRequestId };
    if (message.status === 'sent') {
      printJson(out);
      return EXIT.ok;
    }
    if (message.status === 'failed') {
      progress(`the merchant refused the message (${message.lastErrorCode ?? '?'}): ${message.lastErrorMessage ?? ''}`);
      printJson(out);
      return EXIT.business;
    }
    const code = message.lastErrorCode ?? '';
    const refusedAccess = code.startsWith('401') || code.startsWith('403');
    const away = code === 'TRANSPORT' || code === 'TIMEOUT';
    const nextMs = (message.nextAttemptAt ?? 0) * 1000;
    if (refusedAccess || away || nextMs > deadline || core.clock.nowMs() > deadline) {
      progress(`message ${clientMessageRef} kept (${message.lastErrorMessage ?? message.status}); run (or the app) sends it again with the same ref`);
      printJson(out);
      return refusedAccess ? EXIT.business : EXIT.network;
    }
    await core.clock.sleep(Math.max(250, nextMs - core.clock.nowMs()));
  }
}

export async function aftersalesSendCommand(context: CliContext, args: ParsedArgs): Promise<number> {
  const caseRef = caseRefOf(args, 'send');
  detailOf(context, caseRef);
  // Images alone are a message too; neither is refused by the shared rules (exit 2).
  const text = optionOf(args, 'text') ?? '';
  const services = await context.core.merchant();
  // Stored with its clientMessageRef before anything is sent (core's message outbox).
  const clientMessageRef = services.aftersales.send(caseRef, { text, images: args.options.get('image') ?? [] });
  return deliver(context, services, clientMessageRef);
}
