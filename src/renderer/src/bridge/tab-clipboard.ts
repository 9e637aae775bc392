// The browser tab's clipboard for the web host's vault.copy (src/web-host/browser-clipboard.ts is the
// other end). Electron's main clears the clipboard after 30 s only if it still holds our value; a tab
// does the same when the browser lets it read the clipboard. When reading is refused, it clears
// anyway: a card code left on the clipboard is worse than losing whatever was copied after it.
export interface ClipboardPort {
  writeText(text: string): Promise<void>;
  readText(): Promise<string>;
}

/** Writes `text` now and clears it after `clearAfterMs`; resolves once the write succeeded. */
export async function writeAndClearLater(port: ClipboardPort, text: string, clearAfterMs: number): Promise<void> {
  await port.writeText(text);
  setTimeout(() => {
    port
      .readText()
      .then(
        (current) => (current === text ? port.writeText('') : undefined),
        () => port.writeText(''),
      )
      .catch(() => undefined);
  }, clearAfterMs);
}
