// The wall clock in Unix seconds, re-rendering every `everyMs` while `active`: a reading's age on screen
// moves on by itself (reading-age.ts).
import { useEffect, useState } from 'react';

export function useNowSeconds(active: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    if (!active) return;
    setNow(Math.floor(Date.now() / 1000));
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
