// The after-sales input rules shared by core and the renderer's forms (contract §9.1, 9.2 and 7.1's
// public image URL): what is accepted exactly at the limits, what each rule refuses, and that the
// value sent is the trimmed one (the merchant compares trimmed descriptions on a repeated create).
import { describe, expect, it } from 'vitest';
import { characterCount, checkCaseDraft, checkMessageDraft, imageUrlProblem } from '../../src/shared/aftersale-rules';

describe('after-sales rules', () => {
  it('accepts public https image addresses under a host name', () => {
    for (const url of [
      'https://img.example.com/a.png',
      'https://cdn.example.cn:8443/x/y/z.JPEG?v=2#frag',
      'https://xn--fiq228c.example.com/photo.webp',
      'https://a-b.c.example.org/1.gif',
      'https://img.example.com/b.bmp',
      'https://img.example.com/c.jpg',
      `https://img.example.com/${'a'.repeat(2048 - 28)}.png`,
    ]) {
      expect(imageUrlProblem(url), url).toBeNull();
    }
  });

  it('names the rule each bad address breaks', () => {
    const cases: [string, string][] = [
      [`https://img.example.com/${'a'.repeat(2049 - 28)}.png`, 'URL_TOO_LONG'],
      ['', 'URL_INVALID'],
      ['img.example.com/a.png', 'URL_INVALID'],
      ['https://img.example.com/a b.png', 'URL_INVALID'],
      [' https://img.example.com/a.png', 'URL_INVALID'],
      ['http://img.example.com/a.png', 'NOT_HTTPS'],
      ['ftp://img.example.com/a.png', 'NOT_HTTPS'],
      ['data:image/png;base64,AAAA', 'NOT_HTTPS'],
      ['https://user@img.example.com/a.png', 'CREDENTIALS_IN_URL'],
      ['https://user:secret@img.example.com/a.png', 'CREDENTIALS_IN_URL'],
      ['https://127.0.0.1/a.png', 'HOST_NOT_PUBLIC'],
      ['https://2130706433/a.png', 'HOST_NOT_PUBLIC'],
      ['https://0x7f.1/a.png', 'HOST_NOT_PUBLIC'],
      ['https://10.1.2.3/a.png', 'HOST_NOT_PUBLIC'],
      ['https://8.8.8.8/a.png', 'HOST_NOT_PUBLIC'],
      ['https://[::1]/a.png', 'HOST_NOT_PUBLIC'],
      ['https://[2001:db8::1]/a.png', 'HOST_NOT_PUBLIC'],
      ['https://localhost/a.png', 'HOST_NOT_PUBLIC'],
      ['https://LOCALHOST./a.png', 'HOST_NOT_PUBLIC'],
      ['https://printer.local/a.png', 'HOST_NOT_PUBLIC'],
      ['https://nas.home.arpa/a.png', 'HOST_NOT_PUBLIC'],
      ['https://db.internal/a.png', 'HOST_NOT_PUBLIC'],
      ['https://app.localhost/a.png', 'HOST_NOT_PUBLIC'],
      ['https://fileserver/a.png', 'HOST_NOT_PUBLIC'],
      ['https://img.example.com/a.png.html', 'NOT_AN_IMAGE'],
      ['https://img.example.com/', 'NOT_AN_IMAGE'],
      ['https://img.example.com/a.svg', 'NOT_AN_IMAGE'],
    ];
    for (const [url, rule] of cases) expect(imageUrlProblem(url), url).toBe(rule);
  });

  it('checks a case: category, 1 to 500 characters after trimming (code points), at most 5 images', () => {
    const max = `  ${'😀'.repeat(500)}\n`;
    expect(characterCount('😀'.repeat(500))).toBe(500);
    const ok = checkCaseDraft({ category: 'cardInvalid', description: max, images: [' https://img.example.com/a.png ', '', '   '] });
    expect(ok).toEqual({ ok: true, value: { category: 'cardInvalid', description: '😀'.repeat(500), images: ['https://img.example.com/a.png'] } });

    const bad = checkCaseDraft({ category: 'refundPlease', description: '字'.repeat(501), images: Array.from({ length: 6 }, (_, i) => `https://img.example.com/${i}.png`) });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems.map((p) => [p.path, p.rule])).toEqual([
      ['category', 'CATEGORY_UNKNOWN'],
      ['description', 'TOO_LONG'],
      ['images', 'TOO_MANY_IMAGES'],
    ]);
    const blank = checkCaseDraft({ category: 'other', description: ' \t\n ', images: ['http://img.example.com/a.png'] });
    expect(blank.ok ? [] : blank.problems.map((p) => [p.path, p.rule])).toEqual([
      ['description', 'REQUIRED'],
      ['images.0', 'NOT_HTTPS'],
    ]);
    // Words never echo what was typed.
    const typed = checkCaseDraft({ category: 'other', description: 'x', images: ['https://user:TOPSECRET@img.example.com/a.png'] });
    expect(JSON.stringify(typed)).not.toContain('TOPSECRET');
  });

  it('checks a message: at most 1000 characters, and text or at least one image', () => {
    expect(checkMessageDraft({ text: ` ${'好'.repeat(1000)} `, images: [] })).toEqual({ ok: true, value: { text: '好'.repeat(1000), images: [] } });
    expect(checkMessageDraft({ text: '', images: ['https://img.example.com/a.png'] })).toEqual({ ok: true, value: { text: '', images: ['https://img.example.com/a.png'] } });
    const long = checkMessageDraft({ text: '好'.repeat(1001), images: [] });
    expect(long.ok ? [] : long.problems.map((p) => [p.path, p.rule])).toEqual([['text', 'TOO_LONG']]);
    const empty = checkMessageDraft({ text: '  ', images: ['  '] });
    expect(empty.ok ? [] : empty.problems.map((p) => [p.path, p.rule])).toEqual([['text', 'EMPTY_MESSAGE']]);
  });
});
