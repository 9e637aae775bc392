// After-sales cases and their messages (contract §9).
import { z } from 'zod';
import { enumText, stringRef, unixSeconds } from './wire-primitives';

/** contract §9.3 messages[]; also the response of `POST /aftersales/{ref}/messages`. */
export const caseMessageSchema = z.looseObject({
  messageRef: stringRef,
  /** null for the merchant's messages */
  clientMessageRef: z.string().nullable(),
  /** see classifyMessageSender */
  sender: enumText,
  text: z.string(),
  images: z.array(z.string()),
  createdAt: unixSeconds,
});
export type CaseMessage = z.infer<typeof caseMessageSchema>;

/** contract §9.3; the response of `POST /aftersales` and `GET /aftersales/{ref}`. */
export const aftersaleCaseSchema = z.looseObject({
  platformCaseRef: stringRef,
  clientOrderRef: stringRef,
  platformOrderRef: stringRef,
  /** see classifyAftersaleCategory */
  category: enumText,
  description: z.string(),
  images: z.array(z.string()),
  /** see classifyCaseState */
  state: enumText,
  /** Items: see classifyCaseAction. */
  allowedActions: z.array(enumText),
  createdAt: unixSeconds,
  updatedAt: unixSeconds,
  messages: z.array(caseMessageSchema),
});
export type AftersaleCase = z.infer<typeof aftersaleCaseSchema>;
