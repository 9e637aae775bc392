// `tunnel ngrok-authtoken`: stores the user's ngrok authtoken where `run --tunnel ngrok` reads it,
// in the secret store beside the API key, and kept the same way. Like the key it comes
// from the environment (PROCURE_NGROK_AUTHTOKEN) or standard input, never from argv, which every
// process on the machine can read; it is never printed back.
import { saveNgrokAuthtoken } from '../../core';
import { readStdinLine, type CliContext } from '../cli-context';
import { printJson } from '../output';

export async function ngrokAuthtokenCommand(context: CliContext): Promise<void> {
  // An empty variable counts as unset, so the token is then read from stdin.
  const authtoken = process.env['PROCURE_NGROK_AUTHTOKEN'] || (await readStdinLine());
  context.logger.registerSecret(authtoken);
  await saveNgrokAuthtoken(context.secrets, authtoken);
  printJson({ ngrokAuthtoken: 'stored' });
}
