// The logger port handed to core (DESIGN.md: createCore takes its logger). Fields are structured
// data; implementations decide where lines go and what must never appear in them.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A logger that also knows the secrets of this run, so callers can clean text that leaves core. */
export interface SecretAwareLogger extends Logger {
  /** Every later occurrence of `value` in any logged string becomes `***`. Returns a function that forgets it. */
  registerSecret(value: string): () => void;
  /** The text with patterns and registered secrets removed, for error messages. */
  redact(text: string): string;
}
