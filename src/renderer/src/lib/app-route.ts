// The renderer's side of a clicked desktop notification (contract §17.4): main says where to go
// (`app.navigate`) and the UI stores open it, as the buyer's own click would. Product numbers are per
// merchant: a product of a merchant that is not the active one is looked up by name in Compare rather
// than opened as the active merchant's product of the same number.
import type { AppRoute } from '../../../shared/ipc/views/navigation';
import { useAftersaleStore } from '../state/aftersale-store';
import { useUiStore } from '../state/ui-store';

export function goTo(route: AppRoute, activeProfileId: string | null): void {
  const ui = useUiStore.getState();
  switch (route.to) {
    case 'order':
      ui.openOrder(route.clientOrderRef);
      return;
    case 'vault':
      ui.openVault(route.clientOrderRef);
      return;
    case 'product':
      if (route.profileId !== undefined && activeProfileId !== null && route.profileId !== activeProfileId) ui.openCompare(route.productName ?? '');
      else ui.openProduct(route.productRef);
      return;
    case 'case':
      ui.setPage('aftersales');
      useAftersaleStore.getState().openCase(route.platformCaseRef);
      return;
    case 'dashboard':
      ui.setPage('dashboard');
      return;
  }
}
