// The headers every control API call needs (src/sandbox/control/control-access.ts): the sandbox's
// control token, and JSON as the type of every POST, even one without a body.
export function controlHeaders(controlToken: string, method = 'GET'): Record<string, string> {
  return { Authorization: `Bearer ${controlToken}`, ...(method === 'GET' ? {} : { 'Content-Type': 'application/json' }) };
}
