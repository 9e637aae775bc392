// `profiles list|add|remove`: the merchant profiles of the data folder (issue 17, contract §15.5).
// A new profile starts unconnected: `connect --profile NAME …` gives it its merchant. Removing is
// the desk's (profile-removal.ts): refused while the profile's work is open and while its vault holds
// cards never exported unless --discard-unexported-cards says they may go; like every destructive
// command here it needs --yes (a script has no prompt to answer).
import { profileWork } from '../../core';
import { UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { printJson, printLine } from '../output';

export interface ProfileRow {
  id: string;
  name: string;
  active: boolean;
  connected: boolean;
  baseUrl: string | null;
  userId: string | null;
}

export async function profilesListCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const { desk } = context;
  const activeId = desk.profiles.activeId();
  const rows: ProfileRow[] = [];
  for (const record of desk.profiles.list()) {
    const { core } = await desk.open(record.id);
    const settings = core.connection();
    const keyStored = (await core.storedApiKey()) !== null;
    rows.push({ id: record.id, name: record.name, active: record.id === activeId, connected: settings !== null && keyStored, baseUrl: settings?.baseUrl ?? null, userId: settings?.userId ?? null });
  }
  if (args.flags.has('json')) {
    printJson(rows);
    return;
  }
  for (const row of rows) printLine(`${row.active ? '*' : ' '} ${row.id}\t${row.name}\t${row.connected ? 'connected' : 'not connected'}\t${row.baseUrl ?? '-'}\t${row.userId ?? '-'}`);
}

function nameWord(args: ParsedArgs, verb: string): string {
  const name = args.words[2];
  if (name === undefined || args.words.length > 3) throw new UsageError(`profiles ${verb} needs one NAME (quote a name with spaces)`);
  return name;
}

export async function profilesAddCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const added = await context.desk.add(nameWord(args, 'add'));
  if (args.flags.has('json')) printJson({ id: added.record.id, name: added.record.name });
  else printLine(`${added.record.id}\t${added.record.name}\t(connect it: connect --profile ${JSON.stringify(added.record.name)} --base-url URL --user-id ID)`);
}

export async function profilesRemoveCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const record = context.desk.profiles.lookup(nameWord(args, 'remove'));
  if (!args.flags.has('yes')) throw new UsageError(`removing ${record.name} (${record.id}) deletes its orders, cards and key on this machine: add --yes to do it`);
  const work = profileWork((await context.desk.open(record.id)).core.db);
  await context.desk.remove(record.id, { discardUnexportedCards: args.flags.has('discard-unexported-cards') });
  if (args.flags.has('json')) printJson({ removed: record.id, name: record.name, cardsDeleted: work.cards });
  else printLine(`removed ${record.id}\t${record.name}\t${work.cards} card(s) deleted`);
}
