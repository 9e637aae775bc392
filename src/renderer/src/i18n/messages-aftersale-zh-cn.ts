// aftersale 界面的简体中文；键与 messages-aftersale-en.ts 相同，由类型检查保证。
import type { AftersaleMessageKey } from './messages-aftersale-en';

export const aftersaleZhCN: Record<AftersaleMessageKey, string> = {
};
