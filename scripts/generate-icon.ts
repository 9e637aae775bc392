// Writes resources/icon.png (1024×1024, which electron-builder scales down for every platform; macOS
// needs at least 512): a blue rounded square with three white "order lines", drawn on a 256 grid.
// Generated rather than drawn so the repository needs no image tools: `npx tsx scripts/generate-icon.ts`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SCALE = 4;
const SIZE = 256 * SCALE;
const RADIUS = 48 * SCALE;
const BLUE = [0x1f, 0x6f, 0xeb, 0xff] as const;
const WHITE = [0xff, 0xff, 0xff, 0xff] as const;
const CLEAR = [0, 0, 0, 0] as const;
const LINES = [
  { y: 76, from: 64, to: 192 },
  { y: 120, from: 64, to: 192 },
  { y: 164, from: 64, to: 148 },
].map((line) => ({ y: line.y * SCALE, from: line.from * SCALE, to: line.to * SCALE }));
const LINE_HEIGHT = 18 * SCALE;

function insideRoundedSquare(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, RADIUS), SIZE - 1 - RADIUS);
  const cy = Math.min(Math.max(y, RADIUS), SIZE - 1 - RADIUS);
  return (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS ** 2;
}

function pixel(x: number, y: number): readonly number[] {
  if (!insideRoundedSquare(x, y)) return CLEAR;
  const onLine = LINES.some((line) => y >= line.y && y < line.y + LINE_HEIGHT && x >= line.from && x < line.to);
  return onLine ? WHITE : BLUE;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.writeUInt8(8, 8); // bit depth
header.writeUInt8(6, 9); // colour type RGBA

const raw = Buffer.alloc(SIZE * (1 + SIZE * 4));
for (let y = 0; y < SIZE; y++) {
  const row = y * (1 + SIZE * 4); // each row starts with filter type 0
  for (let x = 0; x < SIZE; x++) Buffer.from(pixel(x, y)).copy(raw, row + 1 + x * 4);
}

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../resources/icon.png', import.meta.url), png);
