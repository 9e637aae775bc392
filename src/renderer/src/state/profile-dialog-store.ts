// Which merchant-profile dialog is open (add, rename, remove) and the switcher menu: opened from the
// header's switcher, its shortcut and Settings' Merchants section alike.
import { create } from 'zustand';

export type ProfileDialog = { readonly kind: 'add' } | { readonly kind: 'rename'; readonly profileId: string } | { readonly kind: 'remove'; readonly profileId: string };

interface ProfileDialogState {
  dialog: ProfileDialog | null;
  switcherOpen: boolean;
  /** The profile that was active before "Add merchant…": where the new one's connect screen goes back to. */
  returnTo: string | null;
  open: (dialog: ProfileDialog | null) => void;
  setSwitcherOpen: (open: boolean) => void;
  setReturnTo: (profileId: string | null) => void;
}

export const useProfileDialogStore = create<ProfileDialogState>()((set) => ({
  dialog: null,
  switcherOpen: false,
  returnTo: null,
  open: (dialog) => set({ dialog, switcherOpen: false }),
  setSwitcherOpen: (switcherOpen) => set({ switcherOpen }),
  setReturnTo: (returnTo) => set({ returnTo }),
}));
