// The header's balance: the active merchant's last reading, with its age while it is read again or
// when it could not be (BalanceReading). core reads it again after every order or refund event and
// pushes it (account.changed), so no polling here.
import type { AccountView } from '../../../shared/ipc/views/connection';
import { useAccount } from '../queries/connection';
import { BalanceReading } from './BalanceReading';

export function HeaderBalance({ account }: { account: AccountView }) {
  const query = useAccount(true);
  return <BalanceReading account={account} refreshing={query.isFetching} failed={query.isError} testId="header-balance" strong />;
}
