// This computer's time, re-read every `tickMs` while a countdown is on screen (null: no ticking), so
// that words about a wait are recomputed instead of going stale (lib/wait-words.ts).
import { useEffect, useState } from 'react';

export function useNow(tickMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (tickMs === null) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}
