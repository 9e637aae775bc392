// Whether a dialog or drawer is open now: notifications stack under them (AppProviders), so one that
// arrives meanwhile stays until the buyer closes it instead of fading unseen behind the dialog.

export function overlayOpen(root: ParentNode = document): boolean {
  return [...root.querySelectorAll('.ant-modal-mask, .ant-drawer-mask')].some((mask) => mask.getClientRects().length > 0);
}
