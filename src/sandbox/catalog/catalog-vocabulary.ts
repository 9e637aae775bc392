// What a Chinese virtual-goods merchant sells, as data: two levels of categories, the product
// archetypes of each leaf (a base name, card or top-up, a ladder of variants with list prices),
// and the purchase fields of top-ups. The generator only combines these; everything a person would
// read in the demo (names, labels, patterns) lives here.
//
// The purchase-field arrays are shared by every template that uses them (a 100,000-product catalog
// would otherwise hold hundreds of thousands of copies), so they are frozen: treat purchaseFields
// as immutable and replace the array on a template instead of editing it.

import type { ProductType, PurchaseField } from '../domain/catalog-types';

export interface LadderStep {
  readonly title: string;
  /** List price in fen before the product's discount or markup. */
  readonly baseFen: number;
  /** Nominal value (话费, 点卡, 礼品卡 face value); null where there is none (memberships). */
  readonly faceFen: number | null;
}

/** A product's price factor is drawn from [low, high) and the result rounded to `roundFen`. */
export interface Pricing {
  readonly low: number;
  readonly high: number;
  readonly roundFen: number;
}

/** Names of large catalogs get a region (话费, 流量) or an edition suffix so that they vary. */
export type SuffixKind = 'region' | 'edition';

export interface Archetype {
  readonly base: string;
  readonly type: ProductType;
  readonly ladder: readonly LadderStep[];
  readonly pricing: Pricing;
  /** Frozen and shared; empty for cards. */
  readonly fields: PurchaseField[];
  readonly suffix: SuffixKind;
}

export interface LeafVocabulary {
  readonly name: string;
  readonly brand: string;
  readonly archetypes: readonly Archetype[];
}

export interface TopCategoryVocabulary {
  readonly name: string;
  readonly leaves: readonly LeafVocabulary[];
}

// ---- purchase fields -------------------------------------------------------------------------

function field(spec: Partial<PurchaseField> & Pick<PurchaseField, 'fieldRef' | 'label' | 'type'>): PurchaseField {
  const options = spec.options ?? null;
  if (options) {
    for (const option of options) Object.freeze(option);
    Object.freeze(options);
  }
  return Object.freeze({
    fieldRef: spec.fieldRef,
    label: spec.label,
    type: spec.type,
    required: spec.required ?? true,
    pattern: spec.pattern ?? null,
    minLength: spec.minLength ?? null,
    maxLength: spec.maxLength ?? null,
    options,
    placeholder: spec.placeholder ?? null,
    sensitive: spec.sensitive ?? false,
  });
}

function fieldSet(...fields: PurchaseField[]): PurchaseField[] {
  // Frozen at run time, typed mutable only because PurchaseTemplate.purchaseFields is.
  Object.freeze(fields);
  return fields;
}

const mobile = field({
  fieldRef: 'mobile',
  label: '充值手机号',
  type: 'mobile',
  pattern: '^1[3-9]\\d{9}$',
  placeholder: '请输入11位手机号',
  sensitive: true,
});
const qq = field({
  fieldRef: 'qq',
  label: 'QQ号码',
  type: 'text',
  pattern: '^[1-9]\\d{4,11}$',
  minLength: 5,
  maxLength: 12,
  placeholder: '请输入QQ号',
  sensitive: true,
});
const memberAccount = field({
  fieldRef: 'account',
  label: '会员账号',
  type: 'text',
  minLength: 5,
  maxLength: 50,
  placeholder: '手机号或邮箱',
  sensitive: true,
});
const notifyEmail = field({
  fieldRef: 'notifyEmail',
  label: '到账通知邮箱',
  type: 'email',
  required: false,
  maxLength: 100,
  placeholder: '选填',
});
const tencentZone = field({
  fieldRef: 'zone',
  label: '游戏区服',
  type: 'select',
  options: [
    { value: 'android-qq', label: '安卓QQ区' },
    { value: 'ios-qq', label: '苹果QQ区' },
    { value: 'android-wx', label: '安卓微信区' },
    { value: 'ios-wx', label: '苹果微信区' },
  ],
});
const gameAccount = field({
  fieldRef: 'account',
  label: '游戏账号',
  type: 'text',
  minLength: 5,
  maxLength: 30,
  placeholder: 'QQ号或微信号',
  sensitive: true,
});
const roleName = field({ fieldRef: 'roleName', label: '角色名', type: 'text', required: false, maxLength: 20 });
const genshinUid = field({
  fieldRef: 'uid',
  label: '游戏UID',
  type: 'integer',
  pattern: '^[1-9]\\d{8}$',
  minLength: 9,
  maxLength: 9,
  placeholder: '9位数字UID',
  sensitive: true,
});
const genshinServer = field({
  fieldRef: 'server',
  label: '服务器',
  type: 'select',
  options: [
    { value: 'cn_gf01', label: '天空岛（官服）' },
    { value: 'cn_qd01', label: '世界树（B服）' },
  ],
});
const neteasePassport = field({
  fieldRef: 'passport',
  label: '网易通行证',
  type: 'email',
  maxLength: 64,
  placeholder: 'name@163.com',
  sensitive: true,
});
const neteaseServer = field({ fieldRef: 'server', label: '服务器名称', type: 'text', required: false, maxLength: 20 });

const NO_FIELDS = fieldSet();
const MOBILE = fieldSet(mobile);
const QQ = fieldSet(qq);
const MEMBER = fieldSet(memberAccount);
const MEMBER_NOTIFY = fieldSet(memberAccount, notifyEmail);
const TENCENT_GAME = fieldSet(tencentZone, gameAccount, roleName);
const GENSHIN = fieldSet(genshinUid, genshinServer);
const NETEASE_GAME = fieldSet(neteasePassport, neteaseServer);

// ---- ladders and prices ----------------------------------------------------------------------

const step = (title: string, baseFen: number, faceFen: number | null = null): LadderStep => ({ title, baseFen, faceFen });
const face = (yuan: number): LadderStep => step(`${yuan}元`, yuan * 100, yuan * 100);
const faces = (...yuan: number[]): LadderStep[] => yuan.map(face);
const points = (unit: string, ...counts: [string, number][]): LadderStep[] =>
  counts.map(([title, fen]) => step(`${title}${unit}`, fen, fen));

const VIDEO = [step('月卡', 2000), step('季卡', 5800), step('半年卡', 10800), step('年卡', 19800)];
const VIDEO_PLUS = [step('月卡', 2800), step('季卡', 8200), step('年卡', 29800)];
const MUSIC = [step('周卡', 600), step('月卡', 1700), step('季卡', 4500), step('年卡', 16800)];
const PHONE = faces(10, 20, 30, 50, 100, 200, 300, 500);
const PHONE_CARD = faces(30, 50, 100);
const DATA = [
  step('1GB 日包', 300),
  step('2GB 7天包', 800),
  step('5GB 月包', 2000),
  step('10GB 月包', 3000),
  step('20GB 月包', 5000),
];
const GAME_FACE = faces(10, 15, 30, 50, 100);
const GAME_POINTS = points('点券', ['1000', 1000], ['3000', 3000], ['5000', 5000], ['10000', 10000]);
const TENCENT_POINTS = points('点券', ['60', 600], ['300', 3000], ['680', 6800], ['1280', 12800], ['3280', 32800]);
const GENSHIN_CRYSTALS = points(
  '创世结晶',
  ['60', 600],
  ['300+30', 3000],
  ['980+110', 9800],
  ['1980+260', 19800],
  ['3280+600', 32800],
  ['6480+1600', 64800],
);
const QCOIN = points('Q币', ['5', 500], ['10', 1000], ['30', 3000], ['50', 5000], ['100', 10000]);
const GIFT = faces(50, 100, 200, 500, 1000);
const GIFT_SMALL = faces(50, 100, 200);
const FOOD = [step('月卡', 1700), step('季卡', 4200), step('年卡', 15800)];
const RIDE = faces(10, 20, 50);
const DISK_SVIP = [step('月卡', 2500), step('季卡', 7000), step('年卡', 24800)];
const DISK_VIP = [step('月卡', 1700), step('年卡', 14800)];
const READ = [step('月卡', 1900), step('季卡', 5400), step('年卡', 16800)];

/** 话费 sells just under face value (a 100元 top-up at 98.00–99.90). */
const PHONE_PRICE: Pricing = { low: 0.98, high: 0.999, roundFen: 1 };
/** Game point cards and in-game currency: a few percent off face value. */
const GAME_PRICE: Pricing = { low: 0.93, high: 0.995, roundFen: 1 };
/** Gift cards: close to face value. */
const GIFT_PRICE: Pricing = { low: 0.97, high: 1, roundFen: 1 };
/** Coupons with a face value sell well below it. */
const COUPON_PRICE: Pricing = { low: 0.82, high: 0.95, roundFen: 10 };
/** Memberships and data packs: around the list price, whole jiao. */
const MEMBER_PRICE: Pricing = { low: 0.88, high: 1.06, roundFen: 10 };

// ---- archetypes and categories ---------------------------------------------------------------

const card = (base: string, ladder: readonly LadderStep[], pricing: Pricing, suffix: SuffixKind = 'edition'): Archetype => ({
  base,
  type: 'card',
  ladder,
  pricing,
  fields: NO_FIELDS,
  suffix,
});
const topup = (
  base: string,
  ladder: readonly LadderStep[],
  pricing: Pricing,
  fields: PurchaseField[],
  suffix: SuffixKind = 'edition',
): Archetype => ({ base, type: 'topup', ladder, pricing, fields, suffix });

const carrier = (name: string, short: string): LeafVocabulary => ({
  name,
  brand: name,
  archetypes: [
    topup(`${name}话费充值`, PHONE, PHONE_PRICE, MOBILE, 'region'),
    card(`${short}充值卡`, PHONE_CARD, PHONE_PRICE, 'region'),
  ],
});
const dataLeaf = (name: string, brand: string): LeafVocabulary => ({
  name,
  brand,
  archetypes: [topup(`${brand}流量包`, DATA, MEMBER_PRICE, MOBILE, 'region')],
});

export const CATALOG_VOCABULARY: readonly TopCategoryVocabulary[] = [
  {
    name: '视频会员',
    leaves: [
      {
        name: '爱奇艺',
        brand: '爱奇艺',
        archetypes: [
          card('爱奇艺黄金会员', VIDEO, MEMBER_PRICE),
          topup('爱奇艺黄金会员直充', VIDEO, MEMBER_PRICE, MOBILE),
          card('爱奇艺白金会员', VIDEO_PLUS, MEMBER_PRICE),
        ],
      },
      {
        name: '腾讯视频',
        brand: '腾讯视频',
        archetypes: [
          card('腾讯视频VIP', VIDEO, MEMBER_PRICE),
          topup('腾讯视频VIP直充', VIDEO, MEMBER_PRICE, QQ),
          card('腾讯视频超级影视SVIP', VIDEO_PLUS, MEMBER_PRICE),
        ],
      },
      {
        name: '优酷',
        brand: '优酷',
        archetypes: [card('优酷VIP会员', VIDEO, MEMBER_PRICE), topup('优酷VIP会员直充', VIDEO, MEMBER_PRICE, MEMBER)],
      },
      {
        name: '芒果TV',
        brand: '芒果TV',
        archetypes: [card('芒果TV会员', VIDEO, MEMBER_PRICE), topup('芒果TV会员直充', VIDEO, MEMBER_PRICE, MOBILE)],
      },
    ],
  },
  {
    name: '音乐会员',
    leaves: [
      {
        name: 'QQ音乐',
        brand: 'QQ音乐',
        archetypes: [card('QQ音乐豪华绿钻', MUSIC, MEMBER_PRICE), topup('QQ音乐豪华绿钻直充', MUSIC, MEMBER_PRICE, QQ)],
      },
      {
        name: '网易云音乐',
        brand: '网易云音乐',
        archetypes: [card('网易云音乐黑胶VIP', MUSIC, MEMBER_PRICE), topup('网易云音乐黑胶VIP直充', MUSIC, MEMBER_PRICE, MOBILE)],
      },
      {
        name: '酷狗音乐',
        brand: '酷狗音乐',
        archetypes: [card('酷狗音乐豪华VIP', MUSIC, MEMBER_PRICE), topup('酷狗音乐豪华VIP直充', MUSIC, MEMBER_PRICE, MOBILE)],
      },
    ],
  },
  {
    name: '话费充值',
    leaves: [carrier('中国移动', '移动'), carrier('中国联通', '联通'), carrier('中国电信', '电信')],
  },
  {
    name: '流量充值',
    leaves: [dataLeaf('移动流量', '中国移动'), dataLeaf('联通流量', '中国联通'), dataLeaf('电信流量', '中国电信')],
  },
  {
    name: '游戏点卡',
    leaves: [
      { name: '网易一卡通', brand: '网易游戏', archetypes: [card('网易一卡通', GAME_FACE, GAME_PRICE)] },
      { name: '骏网一卡通', brand: '骏网', archetypes: [card('骏网一卡通', GAME_FACE, GAME_PRICE)] },
      { name: '盛大点券', brand: '盛大游戏', archetypes: [card('盛大点券', GAME_POINTS, GAME_PRICE)] },
      { name: '完美点券', brand: '完美世界', archetypes: [card('完美点券', GAME_POINTS, GAME_PRICE)] },
    ],
  },
  {
    name: '游戏直充',
    leaves: [
      {
        name: '腾讯游戏',
        brand: '腾讯游戏',
        archetypes: [
          topup('王者荣耀点券直充', TENCENT_POINTS, GAME_PRICE, TENCENT_GAME),
          topup('和平精英点券直充', TENCENT_POINTS, GAME_PRICE, TENCENT_GAME),
          topup('腾讯Q币直充', QCOIN, GAME_PRICE, QQ),
        ],
      },
      { name: '米哈游', brand: '米哈游', archetypes: [topup('原神创世结晶直充', GENSHIN_CRYSTALS, GAME_PRICE, GENSHIN)] },
      {
        name: '网易游戏',
        brand: '网易游戏',
        archetypes: [
          topup('梦幻西游点数直充', GAME_FACE, GAME_PRICE, NETEASE_GAME),
          topup('大话西游2点数直充', GAME_FACE, GAME_PRICE, NETEASE_GAME),
        ],
      },
    ],
  },
  {
    name: '礼品卡',
    leaves: [
      { name: '京东E卡', brand: '京东', archetypes: [card('京东E卡', GIFT, GIFT_PRICE)] },
      { name: '星巴克', brand: '星巴克', archetypes: [card('星巴克星礼卡', GIFT_SMALL, GIFT_PRICE)] },
      { name: 'App Store', brand: 'Apple', archetypes: [card('App Store 充值卡', GIFT, GIFT_PRICE)] },
      { name: '携程', brand: '携程旅行', archetypes: [card('携程任我行礼品卡', GIFT, GIFT_PRICE)] },
    ],
  },
  {
    name: '外卖出行',
    leaves: [
      {
        name: '美团',
        brand: '美团',
        archetypes: [card('美团外卖神券包', FOOD, MEMBER_PRICE), topup('美团外卖神券包直充', FOOD, MEMBER_PRICE, MOBILE)],
      },
      {
        name: '饿了么',
        brand: '饿了么',
        archetypes: [card('饿了么超级吃货卡', FOOD, MEMBER_PRICE), topup('饿了么超级吃货卡直充', FOOD, MEMBER_PRICE, MOBILE)],
      },
      { name: '滴滴出行', brand: '滴滴出行', archetypes: [card('滴滴快车券', RIDE, COUPON_PRICE)] },
    ],
  },
  {
    name: '网盘会员',
    leaves: [
      {
        name: '百度网盘',
        brand: '百度网盘',
        archetypes: [
          card('百度网盘超级会员SVIP', DISK_SVIP, MEMBER_PRICE),
          topup('百度网盘超级会员SVIP直充', DISK_SVIP, MEMBER_PRICE, MEMBER_NOTIFY),
          card('百度网盘会员VIP', DISK_VIP, MEMBER_PRICE),
        ],
      },
      {
        name: '阿里云盘',
        brand: '阿里云盘',
        archetypes: [card('阿里云盘超级会员', DISK_VIP, MEMBER_PRICE), topup('阿里云盘超级会员直充', DISK_VIP, MEMBER_PRICE, MEMBER_NOTIFY)],
      },
      {
        name: '夸克网盘',
        brand: '夸克',
        archetypes: [card('夸克网盘超级会员', DISK_SVIP, MEMBER_PRICE), topup('夸克网盘超级会员直充', DISK_SVIP, MEMBER_PRICE, MOBILE)],
      },
    ],
  },
  {
    name: '读书会员',
    leaves: [
      { name: '微信读书', brand: '微信读书', archetypes: [card('微信读书付费会员卡', READ, MEMBER_PRICE)] },
      {
        name: '喜马拉雅',
        brand: '喜马拉雅',
        archetypes: [card('喜马拉雅VIP会员', READ, MEMBER_PRICE), topup('喜马拉雅VIP会员直充', READ, MEMBER_PRICE, MOBILE)],
      },
      {
        name: 'QQ阅读',
        brand: 'QQ阅读',
        archetypes: [card('QQ阅读包月会员', READ, MEMBER_PRICE), topup('QQ阅读包月会员直充', READ, MEMBER_PRICE, QQ)],
      },
    ],
  },
];

/** Brands a small merchant never uploaded a logo for: their brand.imageUrl is null. */
export const BRANDS_WITHOUT_IMAGE: ReadonlySet<string> = new Set(['骏网', '盛大游戏', '夸克', 'QQ阅读', '携程旅行']);

export const REGIONS: readonly string[] = ['全国', '广东', '江苏', '浙江', '山东', '河南', '四川', '湖北', '湖南', '福建', '北京', '上海'];
export const CARD_EDITIONS: readonly string[] = ['自动发货', '官方正品', '秒发', '特惠', '企业采购'];
export const TOPUP_EDITIONS: readonly string[] = ['官方直充', '极速到账', '特惠', '企业采购'];

export function describeArchetype(archetype: Archetype): string {
  return archetype.type === 'card'
    ? `${archetype.base}卡密，下单后自动发放，请在有效期内兑换。`
    : `${archetype.base}，充值到所填账号，通常几分钟内到账。`;
}

/** The public CDN the merchant serves brand logos and product pictures from. */
export const IMAGE_HOST = 'https://img.sandbox-merchant.example';
