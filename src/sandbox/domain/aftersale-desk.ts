// After-sales cases (contract §9): one open case per order, messages idempotent by clientMessageRef,
// and the merchant's replies sent as aftersale.message.created.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../http/api-error';
import { CLIENT_REF, optionalStringArray, requireString } from '../http/input-readers';
import type { JsonObject } from '../http/request-body';
import type { Account } from './account-store';
import type { MerchantContext } from './merchant-context';
import type { OrderBook } from './order-book';
import { allowedActions, type Order } from './order-records';
import { isPublicImageUrl } from './url-rules';

export const CASE_CATEGORIES = ['cardInvalid', 'cardUsed', 'notReceived', 'wrongAmount', 'other'] as const;
export type CaseState = 'open' | 'replied' | 'resolved' | 'closed';

export interface CaseMessage {
  messageRef: string;
  clientMessageRef: string | null;
  sender: 'buyer' | 'merchant';
  text: string;
  images: string[];
  createdAt: number;
}

export interface AftersaleCase {
  platformCaseRef: string;
  accountRef: number;
  order: Order;
  category: string;
  description: string;
  images: string[];
  state: CaseState;
  createdAt: number;
  updatedAt: number;
  messages: CaseMessage[];
}

const MAX_IMAGES = 5;

function checkImages(images: string[]): void {
  if (images.some((url) => !isPublicImageUrl(url))) {
    throw new ApiError('IMAGE_URL_INVALID', 'images must be public HTTPS image URLs of at most 2048 characters');
  }
}

function isOpen(state: CaseState): boolean {
  return state === 'open' || state === 'replied';
}

export function messageToWire(message: CaseMessage): Record<string, unknown> {
  return { ...message, images: [...message.images] };
}

export function caseToWire(found: AftersaleCase): Record<string, unknown> {
  return {
    platformCaseRef: found.platformCaseRef,
    clientOrderRef: found.order.clientOrderRef,
    platformOrderRef: found.order.platformOrderRef,
    category: found.category,
    description: found.description,
    images: [...found.images],
    state: found.state,
    allowedActions: found.state === 'closed' ? [] : ['message'],
    createdAt: found.createdAt,
    updatedAt: found.updatedAt,
    messages: found.messages.map(messageToWire),
  };
}

export class AftersaleDesk {
  private readonly cases = new Map<string, AftersaleCase>();
  private sequence = 0;

  constructor(
    private readonly ctx: MerchantContext,
    private readonly book: OrderBook,
  ) {}

  open(account: Account, body: JsonObject): AftersaleCase {
    const clientOrderRef = requireString(body, 'clientOrderRef', { max: 64 });
    const category = requireString(body, 'category', { max: 32 });
    if (!(CASE_CATEGORIES as readonly string[]).includes(category)) throw new ApiError('INVALID_ARGUMENT', `category must be one of ${CASE_CATEGORIES.join(', ')}`);
    const description = requireString(body, 'description', { max: 500, trim: true });
    const images = optionalStringArray(body, 'images', MAX_IMAGES);
    checkImages(images);
    const order = this.book.get(account.accountRef, clientOrderRef);
    const current = [...this.cases.values()].find((c) => c.order === order && isOpen(c.state));
    if (current) {
      // The same create again while the case is open is a retry, not a second case.
      if (current.category === category && current.description === description) return current;
      throw new ApiError('CASE_ACTION_NOT_ALLOWED', 'this order already has an open case');
    }
    if (!allowedActions(order).includes('aftersale')) throw new ApiError('CASE_ACTION_NOT_ALLOWED', 'this order cannot open a case');
    const now = this.ctx.clock.nowSeconds();
    this.sequence += 1;
    const found: AftersaleCase = {
      platformCaseRef: `AS${new Date(now * 1000).toISOString().slice(0, 10).replaceAll('-', '')}${String(this.sequence).padStart(6, '0')}`,
      accountRef: account.accountRef,
      order,
      category,
      description,
      images,
      state: 'open',
      createdAt: now,
      updatedAt: now,
      messages: [],
    };
    this.cases.set(found.platformCaseRef, found);
    order.openCase = true;
    return found;
  }

  get(account: Account, platformCaseRef: string): AftersaleCase {
    const found = this.cases.get(platformCaseRef);
    if (!found || found.accountRef !== account.accountRef) throw new ApiError('AFTERSALE_NOT_FOUND', 'no such case for this account');
    return found;
  }

  findAnywhere(platformCaseRef: string): AftersaleCase | undefined {
    return this.cases.get(platformCaseRef);
  }

  addBuyerMessage(account: Account, platformCaseRef: string, body: JsonObject): CaseMessage {
    const found = this.get(account, platformCaseRef);
    const clientMessageRef = requireString(body, 'clientMessageRef', { max: 64, pattern: CLIENT_REF });
    const text = body['text'] === undefined || body['text'] === null ? '' : requireString(body, 'text', { min: 0, max: 1000 });
    const images = optionalStringArray(body, 'images', MAX_IMAGES);
    if (text.trim() === '' && images.length === 0) throw new ApiError('INVALID_ARGUMENT', 'a message needs text or at least one image');
    checkImages(images);
    const existing = found.messages.find((m) => m.clientMessageRef === clientMessageRef);
    if (existing) {
      if (existing.text !== text || existing.images.join('\n') !== images.join('\n')) {
        throw new ApiError('IDEMPOTENCY_CONFLICT', 'clientMessageRef was used with different content');
      }
      return existing;
    }
    if (found.state === 'closed') throw new ApiError('CASE_ACTION_NOT_ALLOWED', 'the case is closed');
    const message = this.append(found, 'buyer', text, images, clientMessageRef);
    if (found.state === 'replied') found.state = 'open';
    return message;
  }

  /** The merchant answers (control API); the member hears of it by webhook. */
  reply(found: AftersaleCase, text: string, images: string[], state: CaseState | null): CaseMessage {
    const message = this.append(found, 'merchant', text, images, null);
    found.state = state ?? 'replied';
    if (!isOpen(found.state)) found.order.openCase = false;
    const account = this.ctx.accounts.byAccountRef(found.accountRef);
    if (account) {
      this.ctx.publisher.aftersaleMessage(account, found.order, { platformCaseRef: found.platformCaseRef, caseState: found.state, message: messageToWire(message) });
    }
    return message;
  }

  private append(found: AftersaleCase, sender: 'buyer' | 'merchant', text: string, images: string[], clientMessageRef: string | null): CaseMessage {
    const now = this.ctx.clock.nowSeconds();
    const message: CaseMessage = { messageRef: `MSG${randomBytes(6).toString('hex').toUpperCase()}`, clientMessageRef, sender, text, images, createdAt: now };
    found.messages.push(message);
    found.updatedAt = now;
    return message;
  }
}
