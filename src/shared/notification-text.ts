// The words of a notification, in the buyer's language. The app service pushes facts (which order,
// which product, how many cards, the balance…); whoever shows them — the renderer's in-app toast,
// Electron's desktop notification — words them here in the language the buyer chose, so a Chinese
// UI never pops up English. The service keeps an English wording as title/body for logs and the CLI.
// An order is named by the merchant's order number (the one the buyer knows, e.g. 2026112400000001),
// never by the internal clientOrderRef (carried only so a click can open the order); before the
// merchant answered, by its product and "not yet numbered".
import { merchantLabel, type NamedMerchant } from './merchant-label';
import { formatYuan } from './money';
export type NotificationLanguage = 'zh-CN' | 'en';

export type NotificationKind = 'orderCompleted' | 'orderFailed' | 'credentialsReady' | 'productChanged' | 'lowBalance' | 'aftersaleReply';

export interface NotificationFacts {
  readonly kind: NotificationKind;
  /** For opening the order on a click; never shown. */
  readonly clientOrderRef?: string | undefined;
  /** The merchant's order number; null or absent while the merchant has not answered. */
  readonly platformOrderRef?: string | null | undefined;
  readonly productRef?: number | undefined;
  readonly platformCaseRef?: string | undefined;
  readonly productName?: string | null | undefined;
  readonly cards?: number | undefined;
  readonly balanceFen?: number | undefined;
  readonly currency?: string | undefined;
  /** A watched product's new lowest price; absent when the price did not move. */
  readonly priceFromFen?: number | null | undefined;
  /** The start of a merchant's message (never a secret: the merchant wrote it to the buyer). */
  readonly preview?: string | null | undefined;
  readonly images?: number | undefined;
  /** Which merchant it is about, once the buyer has several (contract §15.2): named in the title. */
  readonly merchant?: NamedMerchant | undefined;
}

export interface NotificationText {
  readonly title: string;
  readonly body: string;
}

/** Money as the screens show it (shared/money.ts). */
const yuan = (fen: number): string => formatYuan(fen, { symbol: true });
/** A balance with its currency code, as the merchant reported it. */
const balance = (fen: number, currency: string): string => `${formatYuan(fen)} ${currency}`;
/** In Chinese the yuan is 元, not its ISO code; another currency keeps the merchant's code. */
const zhBalance = (fen: number, currency: string): string => (currency === 'CNY' ? `${formatYuan(fen)} 元` : balance(fen, currency));

function subject(facts: NotificationFacts, language: NotificationLanguage): string {
  if (facts.productName !== undefined && facts.productName !== null && facts.productName !== '') return facts.productName;
  if (facts.productRef !== undefined) return language === 'zh-CN' ? `商品 ${facts.productRef}` : `Product ${facts.productRef}`;
  return language === 'zh-CN' ? '订单' : 'Order';
}

const hasText = (value: string | null | undefined): value is string => value !== undefined && value !== null && value !== '';

/** `订单 2026112400000001（腾讯视频月卡）`, or `腾讯视频月卡订单（尚未编号）` before the merchant numbered it. */
function zhOrder(facts: NotificationFacts): string {
  const product = hasText(facts.productName) ? facts.productName : null;
  if (hasText(facts.platformOrderRef)) return `订单 ${facts.platformOrderRef}${product === null ? '' : `（${product}）`}`;
  return `${product ?? (facts.productRef === undefined ? '' : `商品 ${facts.productRef} 的`)}订单（尚未编号）`;
}

/** `Order 2026112400000001 (腾讯视频月卡)`, or `腾讯视频月卡 order (not yet numbered)`; lower case inside a sentence. */
function enOrder(facts: NotificationFacts, atStart: boolean): string {
  const product = hasText(facts.productName) ? facts.productName : null;
  if (hasText(facts.platformOrderRef)) return `${atStart ? 'Order' : 'order'} ${facts.platformOrderRef}${product === null ? '' : ` (${product})`}`;
  const of = product ?? (facts.productRef === undefined ? null : `product ${facts.productRef}`);
  const named = of === null ? 'an order' : `${of} order`;
  return `${atStart ? named.charAt(0).toUpperCase() + named.slice(1) : named} (not yet numbered)`;
}

function zh(facts: NotificationFacts): NotificationText {
  const name = subject(facts, 'zh-CN');
  const order = zhOrder(facts);
  switch (facts.kind) {
    case 'orderCompleted':
      return { title: '订单已完成', body: `${order}已完成。` };
    case 'orderFailed':
      return { title: '订单失败', body: `${order}失败了，余额不会被扣除或将退回。` };
    case 'credentialsReady':
      return { title: '卡密已到账', body: `${order}的 ${facts.cards ?? 0} 张卡密已存入保险箱。` };
    case 'productChanged': {
      const price = facts.priceFromFen === undefined || facts.priceFromFen === null ? '' : `最低价 ${yuan(facts.priceFromFen)}。`;
      return { title: '关注的商品有变化', body: `${name}的价格或库存有变化。${price}` };
    }
    case 'lowBalance':
      return { title: '余额不足', body: `账户余额为 ${zhBalance(facts.balanceFen ?? 0, facts.currency ?? 'CNY')}，请及时充值以免影响下单。` };
    case 'aftersaleReply': {
      const said = facts.preview !== undefined && facts.preview !== null && facts.preview !== '' ? `“${facts.preview}”` : `发送了 ${facts.images ?? 0} 张图片`;
      return { title: '商户回复了售后', body: `${order}售后 ${facts.platformCaseRef ?? ''}：${said}` };
    }
  }
}

/** `1 card`, `3 cards`: English counts agree with their noun. */
const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function en(facts: NotificationFacts): NotificationText {
  const name = subject(facts, 'en');
  const order = enOrder(facts, true);
  const inner = enOrder(facts, false);
  switch (facts.kind) {
    case 'orderCompleted':
      return { title: 'Order completed', body: `${order} is completed.` };
    case 'orderFailed':
      return { title: 'Order failed', body: `${order} failed; its money is not taken or comes back.` };
    case 'credentialsReady':
      return { title: 'Card codes received', body: `${count(facts.cards ?? 0, 'card', 'cards')} of ${inner} ${facts.cards === 1 ? 'is' : 'are'} in the vault.` };
    case 'productChanged': {
      const price = facts.priceFromFen === undefined || facts.priceFromFen === null ? '' : ` Price from ${yuan(facts.priceFromFen)}.`;
      return { title: 'Watched product changed', body: `${name} changed its price or stock.${price}` };
    }
    case 'lowBalance':
      return { title: 'Low balance', body: `The account balance is ${balance(facts.balanceFen ?? 0, facts.currency ?? 'CNY')}; top it up to keep ordering.` };
    case 'aftersaleReply': {
      const said = facts.preview !== undefined && facts.preview !== null && facts.preview !== '' ? `“${facts.preview}”` : `sent ${count(facts.images ?? 0, 'image', 'images')}`;
      return { title: 'The merchant replied', body: `Case ${facts.platformCaseRef ?? ''} of ${inner}: ${said}` };
    }
  }
}

export function notificationText(facts: NotificationFacts, language: NotificationLanguage): NotificationText {
  const text = language === 'zh-CN' ? zh(facts) : en(facts);
  // With several merchants, "Order completed" alone does not say where: the title names the merchant.
  return facts.merchant === undefined ? text : { ...text, title: `${text.title} · ${merchantLabel(facts.merchant, language)}` };
}

/** The language for a preference ('system' follows the given system locale, Chinese for any zh-*). */
export function notificationLanguage(preference: string, systemLocale: string): NotificationLanguage {
  if (preference === 'zh-CN' || preference === 'en') return preference;
  return systemLocale.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
