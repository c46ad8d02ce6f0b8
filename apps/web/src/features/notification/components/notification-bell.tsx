import { useState } from 'react';
import { Badge, Button, Dropdown, Empty, Spin, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { NotificationVO } from '@registry/shared/contracts/notification';
import { formatTime } from '../../../lib/format-time';
import { useUnreadCount } from '../api/get-unread-count';
import { useLatestNotifications } from '../api/page-notifications';
import { useReadNotifications } from '../api/read-notifications';
import './notification-bell.css';

/** How many of the latest notifications the bell lists. */
export const BELL_LIST_SIZE = 10;

function NotificationItem({ item, onOpen }: { item: NotificationVO; onOpen: (item: NotificationVO) => void }) {
  const unread = item.readAt === null;
  return (
    <button
      type="button"
      className={`notification-item${unread ? ' notification-item-unread' : ''}`}
      onClick={() => onOpen(item)}
      aria-label={`${unread ? '未读' : '已读'}：${item.title}`}
    >
      <span className="notification-item-title">
        {unread && <Badge status="processing" />}
        <Typography.Text strong={unread}>{item.title}</Typography.Text>
      </span>
      <Typography.Text type="secondary" className="notification-item-body">
        {item.body}
      </Typography.Text>
      <Typography.Text type="secondary" className="notification-item-time">
        {item.projectName ? `${item.projectName} · ` : ''}
        {formatTime(item.createdAt)}
      </Typography.Text>
    </button>
  );
}

/**
 * The header bell: the unread count (polled every minute and on window focus), and on click the latest notifications;
 * opening one marks it read and goes to its link; 全部已读 marks every one read.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const count = useUnreadCount();
  const latest = useLatestNotifications(BELL_LIST_SIZE, open);
  const read = useReadNotifications();
  const unread = count.data?.count ?? 0;

  const openItem = (item: NotificationVO) => {
    if (item.readAt === null) read.mutate({ ids: [item.id] });
    setOpen(false);
    if (item.link) void navigate(item.link);
  };

  const records = latest.data?.records ?? [];
  const content = (
    <div className="notification-panel">
      {latest.isPending ? (
        <div className="notification-panel-empty">
          <Spin />
        </div>
      ) : records.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={latest.isError ? '通知加载失败，请稍后重试' : '暂无通知'}
        />
      ) : (
        <div className="notification-list" role="list" aria-label="通知列表">
          {records.map((item) => (
            <div role="listitem" key={item.id}>
              <NotificationItem item={item} onOpen={openItem} />
            </div>
          ))}
        </div>
      )}
    </div>
  );

  // antd's Dropdown (already on every page for the user menu) with the panel as its popup, not a Popover of its own.
  return (
    <Dropdown
      open={open}
      onOpenChange={(next) => setOpen(next)}
      trigger={['click']}
      placement="bottomRight"
      popupRender={() => (
        <div className="notification-popup" role="dialog" aria-label="通知">
          <div className="notification-panel-title">
            <span>通知</span>
            <Button
              type="link"
              size="small"
              disabled={unread === 0}
              loading={read.isPending}
              onClick={() => read.mutate({ all: true })}
            >
              全部已读
            </Button>
          </div>
          {content}
        </div>
      )}
    >
      <button type="button" className="notification-bell" aria-label={unread > 0 ? `通知，${unread}条未读` : '通知'}>
        <Badge count={unread} size="small" overflowCount={99}>
          <BellOutlined className="notification-bell-icon" />
        </Badge>
      </button>
    </Dropdown>
  );
}
