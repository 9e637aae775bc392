// The sandbox reads the interface's published limits (src/shared/merchant-quotas.ts) and adds what
// only its own limiter needs.
import { COOLDOWNS } from '../../shared/merchant-quotas';

export * from '../../shared/merchant-quotas';

/** The longest cooldown: an account idle for longer than this and the minute window holds nothing. */
export const LONGEST_COOLDOWN_MS = Math.max(...Object.values(COOLDOWNS).map((rule) => rule.periodMs));
