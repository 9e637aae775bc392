// The unlock step before core opens (desktop app): when the buyer keeps secrets in the
// passphrase file, main asks for its passphrase before the database and the vault are opened, so the
// contract's channels are not bound yet. Two channels of their own carry that exchange; the preload
// exposes them as `procureDesk.unlock`, checked on both sides against these schemas.
import { z } from 'zod';
import { MAX_EXPORT_PASSWORD_LENGTH } from '../password-policy';

export const UNLOCK_STATE_CHANNEL = 'pd-unlock:state';
export const UNLOCK_SUBMIT_CHANNEL = 'pd-unlock:submit';

/** `needed`: main waits for the passphrase. `wrong`: the last one typed did not open the file. */
export const unlockStateSchema = z.object({ needed: z.boolean(), wrong: z.boolean() });
export type UnlockState = z.infer<typeof unlockStateSchema>;

export const unlockPassphraseSchema = z.string().min(1).max(MAX_EXPORT_PASSWORD_LENGTH);

/** `unlocked`: the file opened and the app's channels are bound; otherwise `wrong` says why not. */
export const unlockAnswerSchema = z.object({ unlocked: z.boolean(), wrong: z.boolean() });
export type UnlockAnswer = z.infer<typeof unlockAnswerSchema>;

export interface UnlockApi {
  state(): Promise<UnlockState>;
  submit(passphrase: string): Promise<UnlockAnswer>;
}
