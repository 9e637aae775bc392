// `connect --base-url URL --user-id ID [--ca-cert FILE]`: the key from PROCURE_API_KEY or stdin.
import { readFileSync } from 'node:fs';
import { optionOf, requiredOption, type ParsedArgs } from '../cli-args';
import { readStdinLine, type CliContext } from '../cli-context';
import { printJson, yuan } from '../output';

export async function connectCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const baseUrl = requiredOption(args, 'base-url');
  const userId = requiredOption(args, 'user-id');
  const caFile = optionOf(args, 'ca-cert');
  // An empty variable counts as unset, so the key is then read from stdin.
  const apiKey = process.env['PROCURE_API_KEY'] || (await readStdinLine());
  context.logger.registerSecret(apiKey);
  const account = await context.core.connect({ baseUrl, userId, apiKey, caCertPem: caFile === undefined ? null : readFileSync(caFile, 'utf8') });
  printJson({ accountRef: account.accountRef, userId: account.userId, nickname: account.nickname, accessState: account.accessState, balance: yuan(account.balance) });
}
