// The unlock step's two calls for the renderer (shared/ipc/unlock.ts), answers checked here: the
// renderer trusts nothing it did not check. Without an answer (main not listening) nothing is needed.
import { unlockAnswerSchema, unlockStateSchema, UNLOCK_STATE_CHANNEL, UNLOCK_SUBMIT_CHANNEL, type UnlockApi } from '../shared/ipc/unlock';
import type { IpcRendererLike } from './ipc-transport';

export function createUnlockBridge(ipcRenderer: Pick<IpcRendererLike, 'invoke'>): UnlockApi {
  return Object.freeze({
    async state() {
      const answer = unlockStateSchema.safeParse(await ipcRenderer.invoke(UNLOCK_STATE_CHANNEL).catch(() => null));
      return answer.success ? answer.data : { needed: false, wrong: false };
    },
    async submit(passphrase: string) {
      const answer = unlockAnswerSchema.safeParse(await ipcRenderer.invoke(UNLOCK_SUBMIT_CHANNEL, passphrase).catch(() => null));
      return answer.success ? answer.data : { unlocked: false, wrong: false };
    },
  });
}
