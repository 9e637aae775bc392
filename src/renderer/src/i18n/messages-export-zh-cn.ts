// export 界面的简体中文；键与 messages-export-en.ts 相同，由类型检查保证。
import type { ExportMessageKey } from './messages-export-en';

export const exportZhCN: Record<ExportMessageKey, string> = {
};
