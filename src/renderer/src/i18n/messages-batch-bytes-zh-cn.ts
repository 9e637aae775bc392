// 批量 CSV 中含有无法识别的字节（议题 25，契约 §13.1）：拒绝读取、买家选择将这些行标为错误后继续，以及行错误。
// 键与 messages-batch-bytes-en.ts 相同。
import type { batchBytesEn } from './messages-batch-bytes-en';

export const batchBytesZhCN: Record<keyof typeof batchBytesEn, string> = {
  'batch.file.invalidBytes': '此 CSV 不是有效的 {encoding} 文本：第 {line} 行第 {column} 个字符处有无法识别的字节，共 {rows} 行含有这类字节。',
  'batchBytes.header': '此 CSV 不是有效的 {encoding} 文本：表头（第 {line} 行第 {column} 个字符处）有无法识别的字节。请将文件另存为 UTF-8 或 GB18030 编码的 CSV 后重新选择。',
  'batchBytes.hint': '尚未下任何订单。请在 Excel 或 WPS 中将文件另存为 CSV（UTF-8 或 GB18030 编码）后重新选择；或者继续：这些行将标为错误、不会下单，其他行照常检查。',
  'batchBytes.mark': '继续，将这些行标为错误',
  'batchBytes.marked': '{rows} 行含有无法识别的字节（{encoding}）：已标为错误，不会下单。',
  'batch.error.INVALID_BYTES': '第 {line} 行第 {column} 个字符处有无法识别的字节',
  'batch.error.INVALID_CHARACTERS': '{field}含有账号中不会出现的字符（乱码“�”或控制字符）',
};
