// The web host's wire format: the same contract as Electron's IPC, carried as JSON text frames over
// one loopback WebSocket. Both ends parse what they receive with these schemas (the host validates
// the channel's input itself, through the app service).
//   browser → host  {id, channel, input}      one call
//   host → browser  {id, result}              its IpcResult (id null when the call was unreadable)
//   host → browser  {event, payload}          a pushed event
//   host → browser  {clipboard: {id, text, clearAfterMs}}   an explicit, audited vault.copy: the
//                   browser is where the buyer's clipboard is, so the tab that asked writes it
//   browser → host  {clipboardAck: {id, ok, message?}}       whether that write worked
import { z } from 'zod';
import { ipcErrorSchema } from './ipc-result';

/** The `<meta name=…>` the web host puts into index.html; its content is the WebSocket path (no secret). */
export const WEB_BRIDGE_META_NAME = 'procure-desk-bridge';

/** The one WebSocket path; the upgrade needs the session cookie, so the path itself is no secret. */
export const WEB_BRIDGE_PATH = '/bridge';

/**
 * Where a page trades the one-time launch secret for its session cookie (POST, JSON
 * `{"secret": "…"}`, answers 204 with Set-Cookie), and asks whether it has one (GET: 204 or 401).
 */
export const WEB_SESSION_PATH = '/session';

/**
 * Where the web host hands a finished export to the browser as a download: `PATH` + a one-time
 * token, served once, to the session that asked, for a short while (web-host/export-downloads.ts).
 */
export const WEB_EXPORT_DOWNLOAD_PATH = '/export-download/';

/** The launch URL's fragment: `#k=SECRET`. A fragment is never sent to a server, logged or referred. */
export const WEB_LAUNCH_FRAGMENT_KEY = 'k';

/** Far longer than a launch secret (43 characters); a bigger body is refused unread. */
export const WEB_SESSION_BODY_MAX_BYTES = 1024;

export const sessionRequestSchema = z.object({ secret: z.string().min(1).max(200) });
export type SessionRequest = z.infer<typeof sessionRequestSchema>;

/** Large enough for an order of 1,000 purchase entries; anything bigger is refused by the socket. */
export const WEB_SOCKET_MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

export const callMessageSchema = z.object({
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  channel: z.string().max(100),
  input: z.unknown().optional(),
});
export type CallMessage = z.infer<typeof callMessageSchema>;

const resultSchema = z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: ipcErrorSchema })]);

export const answerMessageSchema = z.object({
  id: z.number().int().nonnegative().nullable(),
  result: resultSchema,
});
export type AnswerMessage = z.infer<typeof answerMessageSchema>;

export const eventMessageSchema = z.object({
  event: z.string(),
  payload: z.unknown(),
});
export type EventMessage = z.infer<typeof eventMessageSchema>;

/** Longer than any card code; a copy is one card number or password. */
export const CLIPBOARD_TEXT_MAX = 4096;

export const clipboardMessageSchema = z.object({
  clipboard: z.object({
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    text: z.string().max(CLIPBOARD_TEXT_MAX),
    clearAfterMs: z.number().int().positive(),
  }),
});
export type ClipboardMessage = z.infer<typeof clipboardMessageSchema>;

export const clipboardAckSchema = z.object({
  clipboardAck: z.object({
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    ok: z.boolean(),
    message: z.string().max(500).optional(),
  }),
});
export type ClipboardAck = z.infer<typeof clipboardAckSchema>;

export const hostMessageSchema = z.union([answerMessageSchema, eventMessageSchema, clipboardMessageSchema]);
export type HostMessage = z.infer<typeof hostMessageSchema>;
