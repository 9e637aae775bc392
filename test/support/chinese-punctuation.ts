// The rule of the zh-CN punctuation lint: in Chinese text, the ASCII marks : , ; ( ) ! ? are written
// full-width (：，；（）！？). A mark is ASCII-in-Chinese when the nearest letter on either side of it is
// Chinese; addresses, numbers (1:1, 10:30, ¥1,000.00) and code-like tokens keep theirs.
import ts from 'typescript';

const MARKS = /[:,;()!?]/;
/** Han, CJK punctuation and full-width forms (not “” or …: English writes them too). */
const CHINESE = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
/** Stands for a placeholder (`{count}`, `#`, a template literal's `${…}`): it holds a Chinese word or a figure. */
const SLOT = '\uE000';

/** Not prose: addresses, plural-block syntax. What is left is read mark by mark. */
function prose(text: string): string {
  return text
    .replace(/https?:\/\/[\x21-\x7e]*/g, 'a')
    .replace(/\{\w+,\s*plural,/g, SLOT)
    .replace(/(?:=\d+|zero|one|two|few|many|other)\s*\{/g, '')
    .replace(/\{\w+\}/g, SLOT)
    .replace(/[{}]/g, '')
    .replace(/#/g, SLOT);
}

function nearest(text: string, from: number, step: 1 | -1): string {
  for (let i = from; i >= 0 && i < text.length; i += step) {
    const c = text.charAt(i);
    if (c.trim() !== '') return c;
  }
  return '';
}

/**
 * The ASCII marks of a Chinese text, each with a few characters around it ("号: 1"). A placeholder
 * counts as Chinese when the text has Chinese in it (it is filled with a word of that sentence).
 */
export function asciiMarksInChinese(text: string): string[] {
  const chinese = CHINESE.test(text);
  const read = prose(text);
  const isChinese = (c: string): boolean => CHINESE.test(c) || (chinese && c === SLOT);
  const found: string[] = [];
  for (let i = 0; i < read.length; i += 1) {
    if (!MARKS.test(read.charAt(i))) continue;
    if (isChinese(nearest(read, i - 1, -1)) || isChinese(nearest(read, i + 1, 1))) found.push(read.slice(Math.max(0, i - 3), i + 4).replaceAll(SLOT, '{…}'));
  }
  return found;
}

/** The texts a source file writes (string and template literals; a `${…}` read as a placeholder). */
export function literalsOf(fileName: string, source: string): { readonly line: number; readonly text: string }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push({ line: lineOf(file, node), text: node.text });
    else if (ts.isTemplateExpression(node)) found.push({ line: lineOf(file, node), text: [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(SLOT) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function lineOf(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

/** A piece of text with no word of its own that puts ": ", "; ", ", " or " (" between values. */
const joinsValues = (text: string): boolean => !/[\p{L}\p{N}]/u.test(text) && /[:;,]\s|\s\(/.test(text);

/** A mark a template literal (or JSX text) puts between two shown values (`${label}: ${value}`, `${text} (${note})`). */
export function codeJoins(fileName: string, source: string): { readonly line: number; readonly text: string }[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      if (parts.some(joinsValues)) found.push({ line: lineOf(file, node), text: node.getText(file) });
    } else if (ts.isJsxText(node) && joinsValues(node.text)) {
      found.push({ line: lineOf(file, node), text: node.text });
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'join') {
      const [separator] = node.arguments;
      if (separator !== undefined && ts.isStringLiteral(separator) && /^[,;:] $/.test(separator.text)) found.push({ line: lineOf(file, node), text: node.getText(file) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
