// One XML part of an XLSX read as a stream (saxes fed the inflated pieces as they come), within bounds:
// a DOCTYPE or ENTITY declaration anywhere, or a reference to an entity XML does not define itself, is
// refused (no expansion, no external fetch, and no `&xxe;` left as literal text to become an order);
// one token (a text, a tag, a comment) may hold MAX_XML_TOKEN_CHARS, elements nest MAX_DEPTH deep.
// Names reach the handlers without their prefix (`x:row` → `row`), as producers differ there.
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_XML_TOKEN_CHARS } from '../../shared/batch-file-bounds';
import { BatchFileError } from './batch-file-error';
import type { XlsxPackage } from './xlsx-zip-parts';

/** An attribute's value by its local name (`id` finds `r:id` too). */
export type AttributeOf = (name: string) => string | undefined;

export interface XmlHandlers {
  open?(name: string, attribute: AttributeOf): void;
  close?(name: string): void;
  text?(text: string): void;
}

const MAX_DEPTH = 64;
const DECLARATION = /<!\s*(DOCTYPE|ENTITY)/i;
/** Enough of a piece's end to find a declaration split across two pieces. */
const CARRY = 16;

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

function entityRefusal(part: string): BatchFileError {
  return new BatchFileError('xmlEntity', `the XLSX part ${part} declares or uses an XML entity (DOCTYPE/ENTITY): refused for safety`);
}

function attributesOf(tag: SaxesTagPlain): AttributeOf {
  const { attributes } = tag;
  return (name) => {
    const value = attributes[name];
    if (value !== undefined) return value;
    for (const key in attributes) if (key.endsWith(`:${name}`)) return attributes[key];
    return undefined;
  };
}

/** Streams the named part through `handlers`; throws BatchFileError for what it refuses or cannot read. */
export function readXmlPart(pkg: XlsxPackage, part: string, handlers: XmlHandlers): void {
  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  let depth = 0;
  let tokenStart = 0;
  const mark = (): void => {
    tokenStart = parser.position;
  };
  parser.on('doctype', () => {
    throw entityRefusal(part);
  });
  parser.on('xmldecl', mark);
  parser.on('comment', mark);
  parser.on('processinginstruction', mark);
  parser.on('opentag', (tag) => {
    mark();
    depth += 1;
    if (depth > MAX_DEPTH) throw new BatchFileError('unreadableSpreadsheet', `the XLSX workbook cannot be read: ${part} nests elements more than ${MAX_DEPTH} deep`);
    handlers.open?.(localName(tag.name), attributesOf(tag));
  });
  parser.on('closetag', (tag) => {
    mark();
    depth -= 1;
    handlers.close?.(localName(tag.name));
  });
  parser.on('text', (text) => {
    mark();
    handlers.text?.(text);
  });
  parser.on('cdata', (text) => {
    mark();
    handlers.text?.(text);
  });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let tail = '';
  const feed = (text: string): void => {
    if (DECLARATION.test(tail + text)) throw entityRefusal(part);
    tail = text.slice(-CARRY);
    parser.write(text);
    if (parser.position - tokenStart > MAX_XML_TOKEN_CHARS) {
      throw new BatchFileError('tooMuchText', `the XLSX part ${part} holds a text or tag of more than ${MAX_XML_TOKEN_CHARS} characters`);
    }
  };
  try {
    pkg.inflate(part, (piece) => feed(decoder.decode(piece, { stream: true })));
    feed(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof BatchFileError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    if (/undefined entity/i.test(reason)) throw entityRefusal(part);
    throw new BatchFileError('unreadableSpreadsheet', `the XLSX workbook cannot be read: ${part} is not well-formed XML (${reason})`);
  }
}
