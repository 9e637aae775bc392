// English labels of the aftersale screens; merged into messages-en.ts. Same rules: `{name}` is filled
// in at run time, and messages-aftersale-zh-cn.ts has the same keys (checked by its type).
export const aftersaleEn = {
} as const satisfies Record<string, string>;

export type AftersaleMessageKey = keyof typeof aftersaleEn;
