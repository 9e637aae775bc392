// The after-sales menu entry's count: merchant messages the buyer has not read, over every case.
import { Badge } from 'antd';
import { useUnread } from '../queries/aftersales';

export function NavUnreadBadge() {
  const unread = useUnread();
  const total = unread.data?.total ?? 0;
  return (
    <span data-testid="nav-aftersales-badge" data-unread={total} style={{ marginInlineStart: 8 }}>
      <Badge count={total} size="small" />
    </span>
  );
}
