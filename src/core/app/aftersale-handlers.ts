// aftersales.*: the case list, a case with its chat, a refresh from the merchant, opening a case from
// an order (checked and explained in core), queueing a message (its ref is stored before anything is
// sent; the outbox sends it), marking a case read, and the unread counts. Reads and marking read work
// without a connection; everything that talks to the merchant goes through the connection's services.
import type { CaseDetail } from '../../shared/ipc/views/aftersales';
import { markCaseRead } from '../aftersales/tracking-store';
import { createCaseViews } from '../aftersales/case-views';
import { AppFailure } from './error-mapping';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';

type Channels = 'aftersales.list' | 'aftersales.get' | 'aftersales.refresh' | 'aftersales.open' | 'aftersales.send' | 'aftersales.markRead' | 'aftersales.unread';

export function aftersaleHandlers(ctx: AppContext): HandlersFor<Channels> {
  const views = createCaseViews(ctx.core.db);

  const detailOf = (ref: string): CaseDetail => {
    const detail = views.detail(ref);
    if (detail === null) throw new AppFailure('NOT_FOUND', `no after-sales case ${ref} here`);
    return detail;
  };

  const changed = (refs: readonly string[]): void => ctx.events.emit('aftersales.changed', { platformCaseRefs: [...refs] });

  return {
    'aftersales.list': (query) => views.list(query),

    'aftersales.get': ({ platformCaseRef }) => detailOf(platformCaseRef),

    'aftersales.refresh': async ({ platformCaseRef }) => {
      detailOf(platformCaseRef);
      const services = await ctx.merchant();
      await services.aftersales.refresh(platformCaseRef);
      changed([platformCaseRef]);
      return detailOf(platformCaseRef);
    },

    'aftersales.open': async ({ clientOrderRef, category, description, images }) => {
      const services = await ctx.merchant();
      const ref = await services.aftersales.open({ clientOrderRef, category, description, images });
      changed([ref]);
      // The order's allowedActions moved (no second case now): the order screens follow.
      ctx.changed();
      return detailOf(ref);
    },

    'aftersales.send': async ({ platformCaseRef, text, images }) => {
      detailOf(platformCaseRef);
      const services = await ctx.merchant();
      services.aftersales.send(platformCaseRef, { text, images });
      changed([platformCaseRef]);
      return detailOf(platformCaseRef);
    },

    'aftersales.markRead': ({ platformCaseRef }) => {
      detailOf(platformCaseRef);
      markCaseRead(ctx.core.db, platformCaseRef, ctx.nowSeconds());
      changed([platformCaseRef]);
      // The detail is a row and more; the contract's row schema keeps the row's fields.
      return detailOf(platformCaseRef);
    },

    'aftersales.unread': () => views.unread(),
  };
}
