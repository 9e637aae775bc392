// `GET /account` (contract §1).
import { z } from 'zod';
import { enumText, integerRef, yuanAsFen } from './wire-primitives';

export const accountSchema = z.looseObject({
  accountRef: integerRef,
  userId: z.string(),
  nickname: z.string(),
  /** `active` or `suspended`; see classifyAccessState. */
  accessState: enumText,
  /** Fen. Signed: a negative balance is odd but must be shown as it is, not refused. */
  balance: yuanAsFen,
  currency: z.string(),
  contractRevision: z.string(),
});
export type Account = z.infer<typeof accountSchema>;
