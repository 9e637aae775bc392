// data-testid for props objects (antd's onRow and similar), where JSX's hyphenated-attribute
// allowance does not apply: the end-to-end tests find rows by these.
export function testId(id: string, extra: Readonly<Record<string, string | number>> = {}): Record<string, string> {
  const attributes: Record<string, string> = { 'data-testid': id };
  for (const [name, value] of Object.entries(extra)) attributes[`data-${name}`] = String(value);
  return attributes;
}
