// A drawer opened from a row (lib/openable-row.ts) gives the focus back to that row when it closes, so a
// keyboard user goes on from where they were. antd's own return missed it for the order and case drawers
// (the focus fell to the page), so the row is read as the drawer opens (in render, before the drawer takes
// the focus) and given the focus again while the drawer closes, only if the focus was lost meanwhile.
import { useEffect, useRef } from 'react';

/** antd's closing motion is 0.3 s: the focus is checked as it starts, midway and after it. */
const CHECKS_MS = [0, 200, 400, 800] as const;

function lostFocus(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

export function useReturnFocus(open: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  wasOpen.current = open;
  useEffect(() => {
    const target = opener.current;
    if (open || target === null) return;
    const timers = CHECKS_MS.map((ms) =>
      window.setTimeout(() => {
        if (lostFocus() && target.isConnected) target.focus({ preventScroll: true });
      }, ms),
    );
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [open]);
}
