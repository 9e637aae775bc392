// UI state only (what is selected, open, typed): main-side data lives in react-query's cache.
import { create } from 'zustand';
import type { SyncProgressView } from '../../../shared/ipc/views/catalog';
import type { LanguagePreference } from '../i18n/locale';

export type Page = 'catalog' | 'compare' | 'orders' | 'dashboard' | 'aftersales' | 'vault' | 'audit' | 'reconcile' | 'settings';
export type ThemePreference = 'system' | 'light' | 'dark';
export type SortKey = 'relevance' | 'priceAsc' | 'priceDesc' | 'nameAsc' | 'recentlyChanged';

export interface CatalogFilters {
  readonly text: string;
  readonly catalogRef: number | null;
  readonly availability: string | null;
  readonly inStock: boolean;
  readonly minPriceFen: number | null;
  readonly maxPriceFen: number | null;
  readonly sort: SortKey;
}

export const EMPTY_FILTERS: CatalogFilters = {
  text: '',
  catalogRef: null,
  availability: null,
  inStock: false,
  minPriceFen: null,
  maxPriceFen: null,
  sort: 'relevance',
};

/** The order form: a new order of a variant, or the confirmation of a queued one after 409101. */
export type OrderFormTarget =
  | ({ readonly kind: 'new'; readonly productRef: number; readonly variantRef: number } & OrderScope)
  | ({ readonly kind: 'confirm'; readonly productRef: number; readonly variantRef: number; readonly clientOrderRef: string } & OrderScope);

/**
 * Which merchant an order form is for (issue 17): absent = the active profile. A form moved to another
 * merchant by the buyer's choice of an offer names it, keeps the units typed, and says where it came from.
 */
export interface OrderScope {
  readonly profileId?: string;
  readonly unitsText?: string;
  readonly movedFrom?: { readonly merchantName: string; readonly reason: string };
}

/**
 * Everything that floats over a screen, closed whenever the buyer goes to another screen or object,
 * so that "View order" from the catalog leaves only the order drawer open (one Escape closes it).
 * The after-sales drawer and form follow the same rule (aftersale-store.ts listens to this store).
 */
const NOTHING_OPEN = { productRef: null, orderForm: null, orderRef: null } as const;

interface UiState {
  page: Page;
  language: LanguagePreference;
  theme: ThemePreference;
  filters: CatalogFilters;
  productRef: number | null;
  orderForm: OrderFormTarget | null;
  orderRef: string | null;
  vaultOrderRef: string | null;
  syncProgress: SyncProgressView | null;
  /** The compare screen's search (issue 17), kept while the buyer goes elsewhere and comes back. */
  compareText: string;
  /** Set by the first-run screen once connected, so the account summary can be read before moving on. */
  connectDone: boolean;
  setPage: (page: Page) => void;
  setLanguage: (language: LanguagePreference) => void;
  setTheme: (theme: ThemePreference) => void;
  setFilters: (patch: Partial<CatalogFilters>) => void;
  resetFilters: () => void;
  openProduct: (productRef: number | null) => void;
  openOrderForm: (target: OrderFormTarget | null) => void;
  openOrder: (clientOrderRef: string | null) => void;
  openVault: (clientOrderRef: string | null) => void;
  setSyncProgress: (progress: SyncProgressView | null) => void;
  /** The compare screen with this search (the catalog's "Compare merchants" passes its own text). */
  openCompare: (text: string) => void;
  setCompareText: (text: string) => void;
}

export const useUiStore = create<UiState>()((set) => ({
  page: 'catalog',
  language: 'system',
  theme: 'system',
  filters: EMPTY_FILTERS,
  productRef: null,
  orderForm: null,
  orderRef: null,
  vaultOrderRef: null,
  syncProgress: null,
  connectDone: false,
  compareText: '',
  setPage: (page) => set({ ...NOTHING_OPEN, page }),
  setLanguage: (language) => set({ language }),
  setTheme: (theme) => set({ theme }),
  setFilters: (patch) => set((state) => ({ filters: { ...state.filters, ...patch } })),
  resetFilters: () => set((state) => ({ filters: { ...EMPTY_FILTERS, text: state.filters.text } })),
  openProduct: (productRef) => set(productRef === null ? { productRef } : { ...NOTHING_OPEN, productRef }),
  openOrderForm: (orderForm) => set({ orderForm }),
  openOrder: (orderRef) => set(orderRef === null ? { orderRef } : { ...NOTHING_OPEN, orderRef }),
  openVault: (vaultOrderRef) => set(vaultOrderRef === null ? { vaultOrderRef } : { ...NOTHING_OPEN, vaultOrderRef, page: 'vault' }),
  setSyncProgress: (syncProgress) => set({ syncProgress }),
  openCompare: (compareText) => set({ ...NOTHING_OPEN, page: 'compare', compareText }),
  setCompareText: (compareText) => set({ compareText }),
}));
