// The renderer's rule for what floats over a screen (state/ui-store.ts, state/aftersale-store.ts):
// going to another screen or object closes the drawers and modals of the last one, so "View order"
// from the catalog leaves only the order drawer, and a case opened from an order replaces its drawer.
import { beforeEach, describe, expect, it } from 'vitest';
import { useAftersaleStore } from '../../src/renderer/src/state/aftersale-store';
import { useUiStore } from '../../src/renderer/src/state/ui-store';

const open = () => {
  const ui = useUiStore.getState();
  const aftersale = useAftersaleStore.getState();
  return { page: ui.page, productRef: ui.productRef, orderForm: ui.orderForm, orderRef: ui.orderRef, caseRef: aftersale.caseRef, formOrderRef: aftersale.formOrderRef };
};

beforeEach(() => {
  useUiStore.setState({ page: 'catalog', productRef: null, orderForm: null, orderRef: null, vaultOrderRef: null });
  useAftersaleStore.setState({ caseRef: null, formOrderRef: null });
});

describe('drawers on navigation', () => {
  it('"View order" from the product drawer and its order form leaves only the order drawer', () => {
    const ui = useUiStore.getState();
    ui.openProduct(7);
    ui.openOrderForm({ kind: 'new', productRef: 7, variantRef: 1 });
    // What OrderFormModal's "View order" does.
    ui.openOrderForm(null);
    ui.setPage('orders');
    ui.openOrder('PD-1');
    expect(open()).toEqual({ page: 'orders', productRef: null, orderForm: null, orderRef: 'PD-1', caseRef: null, formOrderRef: null });
  });

  it('opening an order or a product closes the other; a form opened over a drawer stays with it', () => {
    const ui = useUiStore.getState();
    ui.openProduct(7);
    ui.openOrder('PD-1');
    expect(open()).toMatchObject({ productRef: null, orderRef: 'PD-1' });
    ui.openOrderForm({ kind: 'confirm', productRef: 7, variantRef: 1, clientOrderRef: 'PD-1' });
    useAftersaleStore.getState().openCaseForm('PD-1');
    expect(open()).toMatchObject({ orderRef: 'PD-1', orderForm: { kind: 'confirm' }, formOrderRef: 'PD-1' });
    ui.openProduct(8);
    expect(open()).toEqual({ page: 'catalog', productRef: 8, orderForm: null, orderRef: null, caseRef: null, formOrderRef: null });
  });

  it('a case chat replaces the order drawer, and another screen closes the chat', () => {
    useUiStore.getState().openOrder('PD-1');
    useAftersaleStore.getState().openCase('C-1');
    expect(open()).toMatchObject({ orderRef: null, caseRef: 'C-1' });
    useUiStore.getState().setPage('vault');
    expect(open()).toMatchObject({ page: 'vault', caseRef: null });
  });

  it('the vault of an order closes the order drawer', () => {
    useUiStore.getState().openOrder('PD-1');
    useUiStore.getState().openVault('PD-1');
    expect(open()).toMatchObject({ page: 'vault', orderRef: null });
    expect(useUiStore.getState().vaultOrderRef).toBe('PD-1');
  });
});
