// The literal secrets of this run (the current API key, card secrets being handled, top-up
// accounts): every occurrence in any string is replaced, also in the URL-encoded and JSON-escaped
// forms in which they show up inside URLs and logged bodies.
import { REDACTED } from './secret-patterns';

/**
 * Shorter values are refused: hiding every "1" or "ab" would wreck every line while protecting
 * nothing, and the key-based rules still hide such values in structured fields.
 */
const MIN_SECRET_LENGTH = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretRegistry {
  private readonly counts = new Map<string, number>();
  private pattern: RegExp | null = null;
  private dirty = false;

  /** Registers a secret; the returned function forgets this registration (counted, so shared values stay). */
  add(value: string): () => void {
    if (value.length < MIN_SECRET_LENGTH) return () => undefined;
    const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
    for (const form of forms) this.counts.set(form, (this.counts.get(form) ?? 0) + 1);
    this.dirty = true;
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      for (const form of forms) {
        const count = (this.counts.get(form) ?? 1) - 1;
        if (count <= 0) this.counts.delete(form);
        else this.counts.set(form, count);
      }
      this.dirty = true;
    };
  }

  get size(): number {
    return this.counts.size;
  }

  redact(text: string): string {
    const pattern = this.currentPattern();
    return pattern === null ? text : text.replace(pattern, REDACTED);
  }

  /** One alternation, longest first so that a secret containing another is hidden whole. */
  private currentPattern(): RegExp | null {
    if (this.dirty) {
      const forms = [...this.counts.keys()].sort((a, b) => b.length - a.length);
      this.pattern = forms.length === 0 ? null : new RegExp(forms.map(escapeRegExp).join('|'), 'g');
      this.dirty = false;
    }
    return this.pattern;
  }
}
