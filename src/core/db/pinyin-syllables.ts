// The syllables of Mandarin pinyin as pinyin-pro 3.29.4 writes them (no tones, ü as v), and how a
// typed run of Latin letters splits into them. The query side needs only this table, never the
// library: pinyin is computed from Chinese at index time (search-spelling.ts), while a query is
// letters, split here. test/core/db/pinyin-syllables.test.ts checks the table against the library.
const SYLLABLE_LIST = `
  a ai an ang ao ba bai ban bang bao bei ben beng bi bian biao bie bin bing bo bu ca cai can cang
  cao ce cen ceng cha chai chan chang chao che chen cheng chi chong chou chu chua chuai chuan chuang
  chui chun chuo ci cong cou cu cuan cui cun cuo da dai dan dang dao de dei den deng di dia dian
  diao die ding diu dong dou du duan dui dun duo e ei en eng er fa fan fang fei fen feng fo fou fu
  ga gai gan gang gao ge gei gen geng gong gou gu gua guai guan guang gui gun guo ha hai han hang
  hao he hei hen heng hng hong hou hu hua huai huan huang hui hun huo ji jia jian jiang jiao jie jin
  jing jiong jiu ju juan jue jun ka kai kan kang kao ke kei ken keng kong kou ku kua kuai kuan kuang
  kui kun kuo la lai lan lang lao le lei leng li lia lian liang liao lie lin ling liu lo long lou lu
  luan lun luo lv lve m ma mai man mang mao me mei men meng mi mian miao mie min ming miu mo mou mu
  n na nai nan nang nao ne nei nen neng ng ni nian niang niao nie nin ning niu nong nou nu nuan nuo
  nv nve o ou pa pai pan pang pao pei pen peng pi pian piao pie pin ping po pou pu qi qia qian qiang
  qiao qie qin qing qiong qiu qu quan que qun ran rang rao re ren reng ri rong rou ru rua ruan rui
  run ruo sa sai san sang sao se sen seng sha shai shan shang shao she shei shen sheng shi shou shu
  shua shuai shuan shuang shui shun shuo si song sou su suan sui sun suo ta tai tan tang tao te tei
  teng ti tian tiao tie ting tong tou tu tuan tui tun tuo wa wai wan wang wei wen weng wo wu xi xia
  xian xiang xiao xie xin xing xiong xiu xu xuan xue xun ya yan yang yao ye yi yin ying yo yong you
  yu yuan yue yun za zai zan zang zao ze zei zen zeng zha zhai zhan zhang zhao zhe zhei zhen zheng
  zhi zhong zhou zhu zhua zhuai zhuan zhuang zhui zhun zhuo zi zong zou zu zuan zui zun zuo`;

export const SYLLABLES: ReadonlySet<string> = new Set(SYLLABLE_LIST.split(/\s+/u).filter((s) => s.length > 0));

/** Every proper prefix of a syllable ("zh", "hua" of "huang"): how far an unfinished last one may be typed. */
const PREFIXES: ReadonlySet<string> = new Set([...SYLLABLES].flatMap((s) => Array.from({ length: s.length - 1 }, (_, i) => s.slice(0, i + 1))));

const LONGEST = Math.max(...[...SYLLABLES].map((s) => s.length));

/** At most this many splits per term ("xian": xian and xi+an); each is a phrase the index evaluates. */
export const MAX_SPLITS = 2;
/** Splits looked at before the best MAX_SPLITS are kept. */
const EXPLORED_SPLITS = 8;

/**
 * The ways `letters` (a-z) splits into syllables, at most MAX_SPLITS, the likeliest first (fewest
 * pieces; an unfinished single consonant at the end, "xia+n", counts as one more): every piece a
 * whole syllable except the last, which may be unfinished ("aiqiy": ai qi y). Where no syllable
 * starts, one letter is a piece of its own, as a name's Latin letters are indexed ("qqyinyue": q q
 * yin yue), so a run pinyin holds only across a boundary ("iqi") splits into pieces no Chinese name has.
 */
export function splitSyllables(letters: string): string[][] {
  const splits: string[][] = [];
  const deadEnds = new Set<number>();
  const walk = (at: number, pieces: string[]): boolean => {
    if (splits.length >= EXPLORED_SPLITS || deadEnds.has(at)) return false;
    const rest = letters.slice(at);
    let found = false;
    if (rest.length > 0 && (PREFIXES.has(rest) || SYLLABLES.has(rest))) {
      splits.push([...pieces, rest]);
      found = true;
    }
    let whole = false;
    for (let length = Math.min(LONGEST, rest.length - 1); length >= 1; length--) {
      const piece = rest.slice(0, length);
      if (!SYLLABLES.has(piece)) continue;
      whole = true;
      if (walk(at + length, [...pieces, piece])) found = true;
    }
    if (!whole && !found && rest.length > 1 && walk(at + 1, [...pieces, rest.slice(0, 1)])) found = true;
    if (!found) deadEnds.add(at);
    return found;
  };
  walk(0, []);
  const cost = (pieces: readonly string[]): number => pieces.length + (/^[^aeiouv]$/u.test(pieces.at(-1) ?? '') && pieces.length > 1 ? 1 : 0);
  return splits.sort((a, b) => cost(a) - cost(b)).slice(0, MAX_SPLITS);
}

// One code point per piece (contract §11.3 "Index layout"): a syllable, or a letter or digit that
// spells itself, is written as one private-use character, so the trigram index sees a full-pinyin
// line as a short string of rare characters and a query's full pinyin is a phrase of a few rare
// trigrams, as a Chinese term is. A category's pieces have a range of their own.
const PIECE_BASE = 0xe000;
/** The most pieces a typed last piece stands for ("z" starts 37 syllables and is a letter of its own). */
export const MAX_COMPLETIONS = 40;
const CATEGORY_OFFSET = 0x200;
const SELF_SPELLED = [...'abcdefghijklmnopqrstuvwxyz0123456789'].filter((c) => !SYLLABLES.has(c));
// The order is the table's, then the letters and digits: fixed, as documents written stay in the index.
const PIECES: readonly string[] = [...SYLLABLES, ...SELF_SPELLED];
const PIECE_INDEX: ReadonlyMap<string, number> = new Map(PIECES.map((piece, index) => [piece, index]));

/** The one-character form of a piece, or undefined for a piece neither a syllable nor one letter or digit. */
export function pieceCode(piece: string, category: boolean): string | undefined {
  const index = PIECE_INDEX.get(piece);
  return index === undefined ? undefined : String.fromCodePoint(PIECE_BASE + (category ? CATEGORY_OFFSET : 0) + index);
}

/**
 * The pieces of a spelled line as code points: a reading outside the table (none is expected: a test
 * checks the table against the library) is written letter by letter rather than lost.
 */
export function piecesAsCodes(pieces: readonly string[], category: boolean): string {
  return pieces.map((piece) => pieceCode(piece, category) ?? Array.from(piece, (c) => pieceCode(c, category) ?? '').join('')).join('');
}

/**
 * What a typed last piece may stand for, as code points: every syllable it starts ("y": ya … yun,
 * "yi": yi, yin, ying) and the letter itself when it spells itself in names ("q" of "QQ"). At most
 * MAX_COMPLETIONS (the longest list, "z": 37 syllables and the letter, is shorter).
 */
export function completionCodes(last: string, category: boolean): string[] {
  return PIECES.filter((piece) => piece.startsWith(last))
    .slice(0, MAX_COMPLETIONS).flatMap((piece) => pieceCode(piece, category) ?? []);
}
