// secrets.* — the buyer's move out of memory-only secrets: while the host keeps the API key
// and the vault's data key in memory only, they can be moved into a passphrase-protected file so that
// stored card codes still open after a restart. The host does the move (AppHost.usePassphraseFile);
// here the passphrase is hidden from every log line for the call, checked by the shared rule, and
// never stored or sent back.
import { checkExportPassword, PASSWORD_PROBLEM_TEXT } from '../../shared/password-policy';
import type { AppContext } from './app-context';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';

type Channels = 'secrets.usePassphraseFile';

export function secretStoreHandlers(ctx: AppContext): HandlersFor<Channels> {
  return {
    'secrets.usePassphraseFile': async ({ passphrase }) => {
      const forget = ctx.logger.registerSecret(passphrase);
      try {
        const move = ctx.host.usePassphraseFile?.bind(ctx.host);
        if (move === undefined) throw new AppFailure('ACTION_NOT_ALLOWED', 'this host keeps secrets in a passphrase file only when started with --data and PROCURE_PASSPHRASE');
        if ((await ctx.connectionStatus()).secretStore !== 'memory') throw new AppFailure('ACTION_NOT_ALLOWED', 'secrets are already kept on disk');
        const verdict = checkExportPassword(passphrase);
        if (verdict.problem !== null) {
          const message = PASSWORD_PROBLEM_TEXT[verdict.problem];
          throw new AppFailure('INVALID_INPUT', message, [{ path: 'passphrase', message }]);
        }
        await move(passphrase);
        const status = await ctx.connectionStatus();
        ctx.events.emit('connection.changed', status);
        return status;
      } finally {
        forget();
      }
    },
  };
}
