// A product's price as its row, drawer and compare line show it: "¥18.50 起" (from) only when its
// variants differ in price, or may (how many there are is not known); one variant, or variants all at
// one price, is just "¥18.50" (contract §11.1).

/** What is known of a product's variants: their prices once stored, else only how many the list says (0: not known). */
export interface PricedVariants {
  readonly variantCount: number;
  readonly variants?: readonly { readonly priceFen: number }[];
}

/** True when "from" is the truth: the variants' prices differ, or may. */
export function priceVaries(product: PricedVariants): boolean {
  if (product.variants !== undefined && product.variants.length > 0) return new Set(product.variants.map((variant) => variant.priceFen)).size > 1;
  return product.variantCount !== 1;
}
