// While this window shows the header and is visible, it tells core so (connection.watch) every few
// seconds: core then keeps the merchant checked even when nothing else is asked, and the header
// learns within seconds that the merchant went away, slowed down or came back (contract §8.3). A
// hidden window (the tray, another tab) stops renewing, and core stops asking soon after.
import { useEffect } from 'react';
import { api } from '../bridge';
import { useConnectionStateStore } from '../state/connection-state-store';

/** Well inside core's WATCH_LEASE_MS (15 s), so one late renewal does not let the watch lapse. */
const RENEW_EVERY_MS = 5_000;

export function useConnectionWatch(): void {
  useEffect(() => {
    const renew = (): void => {
      if (document.visibilityState !== 'visible') return;
      // The answer is the state now: it also covers a push this window missed.
      api.connection.watch().then(
        (view) => useConnectionStateStore.getState().set(view),
        () => undefined,
      );
    };
    renew();
    const timer = setInterval(renew, RENEW_EVERY_MS);
    document.addEventListener('visibilitychange', renew);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', renew);
    };
  }, []);
}
