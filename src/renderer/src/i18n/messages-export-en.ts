// English labels of the export screens; merged into messages-en.ts. Same rules: `{name}` is filled
// in at run time, and messages-export-zh-cn.ts has the same keys (checked by its type).
export const exportEn = {
} as const satisfies Record<string, string>;

export type ExportMessageKey = keyof typeof exportEn;
