// The export password rule shared by the screen's meter and main's check: what it refuses, why, and
// that what it accepts is scored for the meter.
import { describe, expect, it } from 'vitest';
import { checkExportPassword, MIN_EXPORT_PASSWORD_LENGTH, PASSWORD_PROBLEM_TEXT, PASSWORD_PROBLEMS } from '../../src/shared/password-policy';

describe('export password policy', () => {
  it.each([
    ['', 'empty'],
    ['Ab1!', 'tooShort'],
    ['Ab1!xyz9', 'tooShort'],
    ['x'.repeat(257), 'tooLong'],
    ['abcdefghijkmnpq', 'oneClass'],
    ['3141592653589793', 'oneClass'],
    ['卡密卡密导出文件很安全', 'oneClass'],
    ['aaaaaaaaaA1', 'repeated'],
    ['Ab1!Ab1!Ab1!', 'repeated'],
    ['Abcdefgh12', 'sequential'],
    ['qwertyuiop1!', 'sequential'],
    ['9876543210xY', 'sequential'],
    ['1qaz2wsx3edcR', 'sequential'],
    ['Password2024!', 'common'],
    ['P@ssw0rd!!2025', 'common'],
    ['Woaini520131419', 'common'],
  ])('refuses %j: %s', (password, problem) => {
    const verdict = checkExportPassword(password);
    expect(verdict.ok).toBe(false);
    expect(verdict.problem).toBe(problem);
    expect(verdict.score).toBeLessThanOrEqual(1);
  });

  it.each([
    ['correct horse battery', 3],
    ['Kx7-Tiger!92', 3],
    ['tiger-lemon-42', 3],
    ['Zq8 mango Lute 51!', 4],
    ['卡密导出2025年五月批次', 2],
  ])('accepts %j with score %i', (password, score) => {
    expect(checkExportPassword(password)).toEqual({ ok: true, problem: null, score });
  });

  it('explains every problem in words and asks for the documented minimum', () => {
    for (const problem of PASSWORD_PROBLEMS) expect(PASSWORD_PROBLEM_TEXT[problem].length).toBeGreaterThan(10);
    expect(MIN_EXPORT_PASSWORD_LENGTH).toBe(10);
    expect(checkExportPassword('Kx7-Tiger!').ok).toBe(true);
    expect(checkExportPassword('Kx7-Tige!').problem).toBe('tooShort');
  });
});
