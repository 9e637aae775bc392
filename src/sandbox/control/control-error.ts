// Errors of the control API: plain HTTP status and text, since it is a test tool, not the interface.
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type ControlBody = Record<string, unknown>;

/** Yuan given as text ("12.50") or a number, in fen. */
export function readYuan(value: unknown, name: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text === 'string') {
    const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
    if (match) return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  }
  throw new ControlError(400, `${name} must be yuan with at most two decimals`);
}
