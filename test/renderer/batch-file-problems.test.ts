// Every reason core gives for refusing a batch file (BATCH_FILE_PROBLEMS) is worded in both languages,
// with the bound it hit (issue 25: "超过 5000 行，已停止读取", "包含实体声明，出于安全拒绝读取", …).
import { describe, expect, it } from 'vitest';
import { translateDynamic } from '../../src/renderer/src/i18n/translate';
import { BATCH_FILE_PROBLEMS, MAX_BATCH_ROWS } from '../../src/shared/batch-file';
import { BATCH_FILE_BOUND_WORDS } from '../../src/shared/batch-file-bounds';

// invalidBytes is worded with the facts of where the bytes are (components/BatchInvalidBytes.tsx).
const words = { ...BATCH_FILE_BOUND_WORDS, maxRows: MAX_BATCH_ROWS, encoding: 'GB18030', line: 3, column: 5, rows: 2 };

describe('batch file refusals', () => {
  it('have their own words in zh-CN and English, never the fallback, with every number filled in', () => {
    for (const locale of ['zh-CN', 'en'] as const) {
      const fallback = translateDynamic(locale, 'batch.file.notATable', 'batch.file.notATable');
      for (const problem of BATCH_FILE_PROBLEMS) {
        const text = translateDynamic(locale, `batch.file.${problem}`, 'batch.file.notATable', words);
        if (problem !== 'notATable') expect(text, `${locale} ${problem}`).not.toBe(fallback);
        expect(text, `${locale} ${problem}`).not.toMatch(/[{}]/);
      }
    }
  });

  it('name the bound that stopped the reading', () => {
    const zh = (problem: string): string => translateDynamic('zh-CN', `batch.file.${problem}`, 'batch.file.notATable', words);
    expect(zh('tooManyRows')).toContain('超过 5000 行，已停止读取');
    expect(zh('xmlEntity')).toContain('包含实体声明，出于安全拒绝读取');
    expect(zh('unzippedTooLarge')).toContain('解压后超过 64 MB');
    expect(zh('compressionRatio')).toContain('200 倍');
    expect(zh('readTimeout')).toContain('30 秒');
    expect(zh('readOutOfMemory')).toContain('128 MB');
    expect(translateDynamic('en', 'batch.file.tooManyRows', 'batch.file.notATable', words)).toBe('The file has more than 5,000 rows: reading stopped there. One batch holds at most 5,000 rows.');
  });
});
