import { Card, Col, Row, Statistic, Typography } from 'antd';
import { Link } from 'react-router';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import type { FollowupSummary } from '@registry/shared/contracts/followup';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useFollowupSummary } from '../api/get-followup-summary';

type Figure = { key: keyof FollowupSummary; title: string; to: string; danger?: boolean };

/**
 * The home page's follow-up figures, each opening the worklist on the tab and filters that list exactly what it counts
 * (the worklist reads `tab`, `owner`, `from` and `to`; see features/followup/hooks/worklist-query.ts).
 * `today` is the Asia/Shanghai calendar date (the schedule's dates).
 */
export function followupFigures(today: string): readonly Figure[] {
  return [
    { key: 'due', title: '待随访', to: '/followup/list?tab=due' },
    { key: 'dueToday', title: '今日到期', to: `/followup/list?tab=due&from=${today}&to=${today}` },
    { key: 'overdue', title: '已超窗', to: '/followup/list?tab=overdue', danger: true },
    { key: 'mineDue', title: '我的待随访', to: '/followup/list?tab=due&owner=me' },
  ];
}

/** Follow-up at a glance: shown only to users holding `followup.list` in the current project. */
export function FollowupSummaryCards() {
  const held = useMenuStore((s) => s.permissions);
  const allowed = hasAnyPermission(held, [PERMISSIONS.followupList]);
  const summary = useFollowupSummary(allowed);
  if (!allowed) return null;
  return (
    <Card
      title="随访概况"
      extra={
        summary.data?.completionRate != null ? (
          <Typography.Text type="secondary">
            近一年随访完成率 {Math.round(summary.data.completionRate * 1000) / 10}%
          </Typography.Text>
        ) : null
      }
    >
      <Row gutter={[12, 12]}>
        {followupFigures(shanghaiDate(new Date())).map((figure) => (
          <Col key={figure.key} xs={12} md={6}>
            <Link to={figure.to} aria-label={figure.title}>
              <Card size="small" hoverable>
                <Statistic
                  title={figure.title}
                  loading={summary.isPending}
                  value={summary.data ? (summary.data[figure.key] ?? 0) : '—'}
                  styles={
                    figure.danger && (summary.data?.overdue ?? 0) > 0 ? { content: { color: '#cf1322' } } : undefined
                  }
                  suffix="例"
                />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
