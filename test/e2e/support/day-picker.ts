// The app's date boxes are antd DatePickers (components/DayPicker.tsx), not native date inputs: a day is
// typed as the buyer would (YYYY-MM-DD, the picker's format in both languages) and confirmed with Enter,
// and the box is read back to be sure the picker took it.
import type { Locator } from '@playwright/test';
import { expect } from 'vitest';

export async function pickDay(box: Locator, day: string): Promise<void> {
  await box.click();
  await box.fill(day);
  await box.press('Enter');
  await expect.poll(() => box.inputValue()).toBe(day);
}
