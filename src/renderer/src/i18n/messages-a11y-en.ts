// English names screen readers give the rows that open something (lib/openable-row.ts); not shown on
// screen. Merged into messages-en.ts; messages-a11y-zh-cn.ts has the same keys.
export const a11yEn = {
  'a11y.openProduct': 'Open product: {name}, {price}',
  'a11y.openOrder': 'Open order: {product}, {time}',
  'a11y.openCase': 'Open after-sales case: {subject}, {ref}',
  'a11y.chooseVariant': 'Show price history: {variant}',
} as const satisfies Record<string, string>;
