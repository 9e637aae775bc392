// Quitting is explicit (tray, menu, Ctrl/Cmd+Q) and asks while orders are in flight (contract §17.2):
// every quit passes before-quit, which holds it, asks core how many orders are not yet sent or not yet
// answered, and names them in a native dialog with what happens to them; the buyer may keep the app
// running. Without orders in flight it quits at once. Asked once however often the buyer presses Ctrl+Q.
import type { InFlightOrders } from '../shared/ipc/views/orders';
import { fillIn, type Labels } from './app-locale';

export interface QuitQuestion {
  title: string;
  message: string;
  detail: string;
  quit: string;
  keep: string;
}

export interface QuitGuardOptions {
  /** The orders in flight, or null when core could not say (then the question says so). */
  inFlight(): Promise<InFlightOrders | null>;
  /** Shows the question; true: quit. */
  ask(question: QuitQuestion): Promise<boolean>;
  labels(): Labels;
  /** Quits again, now allowed (app.quit). */
  quit(): void;
}

export interface QuitGuard {
  /** True once the buyer's quit may go through (the window may then close for real). */
  readonly allowed: boolean;
  /** app's before-quit: lets an allowed quit pass, holds any other and asks. */
  beforeQuit(event: { preventDefault(): void }): void;
}

/** The dialog's words for the orders in flight; null when there are none. */
export function quitQuestion(orders: InFlightOrders | null, t: Labels): QuitQuestion | null {
  if (orders === null) return { title: t.quitUncheckedTitle, message: t.quitUncheckedBody, detail: t.quitUncheckedDetail, quit: t.quitAnyway, keep: t.keepRunning };
  if (orders.notSent + orders.awaitingAnswer === 0) return null;
  const count = (n: number, one: string, many: string): string => (n === 1 ? one : fillIn(many, { count: String(n) }));
  const message: string[] = [];
  const detail: string[] = [];
  if (orders.notSent > 0) {
    message.push(count(orders.notSent, t.quitInFlightNotSentOne, t.quitInFlightNotSentMany));
    detail.push(t.quitInFlightNotSentDetail);
  }
  if (orders.awaitingAnswer > 0) {
    message.push(count(orders.awaitingAnswer, t.quitInFlightAwaitingOne, t.quitInFlightAwaitingMany));
    detail.push(t.quitInFlightAwaitingDetail);
  }
  return { title: t.quitInFlightTitle, message: message.join(t.sentenceGap), detail: detail.join(t.sentenceGap), quit: t.quitAnyway, keep: t.keepRunning };
}

export function createQuitGuard(options: QuitGuardOptions): QuitGuard {
  let allowed = false;
  let asking = false;
  const decide = async (): Promise<void> => {
    const question = quitQuestion(await options.inFlight().catch(() => null), options.labels());
    if (question === null || (await options.ask(question))) {
      allowed = true;
      options.quit();
    }
  };
  return {
    get allowed() {
      return allowed;
    },
    beforeQuit(event) {
      if (allowed) return;
      event.preventDefault();
      if (asking) return;
      asking = true;
      decide()
        .catch((error: unknown) => console.error('Procure Desk: the quit could not be checked', error))
        .finally(() => {
          asking = false;
        });
    },
  };
}
