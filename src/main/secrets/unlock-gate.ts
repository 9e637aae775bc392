// Main's side of the unlock step (shared/ipc/unlock.ts): hands the passphrase typed in the window to
// unlockPassphraseFile (an AskPassphrase) and tells the window the outcome: asked again (wrong), or
// unlocked once core's channels are bound. The passphrase is never logged, stored or sent back.
import { unlockAnswerSchema, unlockPassphraseSchema, UNLOCK_STATE_CHANNEL, UNLOCK_SUBMIT_CHANNEL, type UnlockAnswer, type UnlockState } from '../../shared/ipc/unlock';
import type { CheckedIpcEvent, SenderCheck } from '../ipc/sender-check';
import type { AskPassphrase } from './passphrase-file-choice';

/** The members of Electron's ipcMain used here. */
export interface UnlockIpcMain {
  handle(channel: string, listener: (event: CheckedIpcEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface UnlockGate {
  /** Given to openDesktopSecrets: resolves with what the buyer types. */
  readonly ask: AskPassphrase;
  /** Core is open and its channels bound: the waiting window goes on. */
  opened(): void;
  dispose(): void;
}

export interface UnlockGateOptions {
  readonly ipcMain: UnlockIpcMain;
  readonly isTrustedSender: SenderCheck;
  /** True when the passphrase file was chosen: the window asks from its first look, before main does. */
  readonly needed: boolean;
}

export function createUnlockGate(options: UnlockGateOptions): UnlockGate {
  let state: UnlockState = { needed: options.needed, wrong: false };
  /** The pending ask, waiting for a passphrase. */
  let answerAsk: ((passphrase: string) => void) | null = null;
  /** The window's pending submit, waiting for the outcome. */
  let answerSubmit: ((answer: UnlockAnswer) => void) | null = null;
  const settle = (answer: UnlockAnswer): void => {
    const reply = answerSubmit;
    answerSubmit = null;
    reply?.(unlockAnswerSchema.parse(answer));
  };

  const ipc = options.ipcMain;
  ipc.handle(UNLOCK_STATE_CHANNEL, (event) => Promise.resolve(options.isTrustedSender(event) ? state : { needed: false, wrong: false }));
  ipc.handle(UNLOCK_SUBMIT_CHANNEL, (event, raw) => {
    if (!options.isTrustedSender(event)) return Promise.resolve({ unlocked: false, wrong: false });
    const parsed = unlockPassphraseSchema.safeParse(raw);
    const ask = answerAsk;
    if (!parsed.success || ask === null) return Promise.resolve({ unlocked: !state.needed, wrong: state.wrong });
    answerAsk = null;
    // One submit at a time: an earlier one still waiting is told to ask again.
    settle({ unlocked: false, wrong: false });
    const outcome = new Promise<UnlockAnswer>((resolve) => {
      answerSubmit = resolve;
    });
    ask(parsed.data);
    return outcome;
  });

  return {
    ask: (attempt) =>
      new Promise<string>((resolve) => {
        state = { needed: true, wrong: attempt.wrong };
        answerAsk = resolve;
        if (attempt.wrong) settle({ unlocked: false, wrong: true });
      }),
    opened() {
      state = { needed: false, wrong: false };
      settle({ unlocked: true, wrong: false });
    },
    dispose() {
      ipc.removeHandler(UNLOCK_STATE_CHANNEL);
      ipc.removeHandler(UNLOCK_SUBMIT_CHANNEL);
    },
  };
}
