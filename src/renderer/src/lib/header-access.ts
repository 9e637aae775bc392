// Whether the header shows the account's access tag beside the balance: not for an active account,
// and not when the connection indicator beside it already says the same ("账户已停用"), so the
// header says a suspension once (issue 26).
import type { ConnectionStateName } from '../../../shared/ipc/views/connection';

export function headerShowsAccessTag(accessState: string, shownState: ConnectionStateName | null, coreReconnecting: boolean): boolean {
  if (accessState === 'active') return false;
  return !(accessState === 'suspended' && shownState === 'suspended' && !coreReconnecting);
}
