// A drawer opened from a row (lib/openable-row.ts) gives the focus back to that row when it closes, so a
// keyboard user goes on from where they were. antd's own return misses it when the row's element is
// gone (a list read again while the drawer was open re-renders it) or for the order and case drawers, so
// the row is read as the drawer opens (in render, before the drawer takes the focus), with what
// identifies it, and given the focus again while the drawer closes, only if the focus was lost meanwhile.
import { useEffect, useRef } from 'react';

/** antd's closing motion is 0.3 s: the focus is checked as it starts, midway and after it. */
const CHECKS_MS = [0, 200, 400, 800] as const;
/** The attributes that say which row an element is (testId's), not its state. */
const IDENTITY = ['data-testid', 'data-ref', 'data-product-ref', 'data-variant-ref'] as const;

function lostFocus(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

/** A selector for the same row, should its element be replaced; null when it carries no identity. */
export function identitySelector(element: Element): string | null {
  const parts = IDENTITY.flatMap((name) => {
    const value = element.getAttribute(name);
    return value === null ? [] : [`[${name}="${CSS.escape(value)}"]`];
  });
  return parts.length === 0 || element.getAttribute('data-testid') === null ? null : parts.join('');
}

function rowNow(opener: HTMLElement, selector: string | null): HTMLElement | null {
  if (opener.isConnected) return opener;
  const again = selector === null ? null : document.querySelector(selector);
  return again instanceof HTMLElement ? again : null;
}

export function useReturnFocus(open: boolean): void {
  const opener = useRef<{ element: HTMLElement; selector: string | null } | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current) {
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement ? { element: active, selector: identitySelector(active) } : null;
  }
  wasOpen.current = open;
  useEffect(() => {
    const target = opener.current;
    if (open || target === null) return;
    const timers = CHECKS_MS.map((ms) =>
      window.setTimeout(() => {
        if (!lostFocus()) return;
        rowNow(target.element, target.selector)?.focus({ preventScroll: true });
      }, ms),
    );
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [open]);
}
