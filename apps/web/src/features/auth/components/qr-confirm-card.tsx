import { useEffect, useRef } from 'react';
import { Button, Card, Space } from 'antd';
import { LazyResult } from '../../../components/lazy-result/lazy-result';
import { DesktopOutlined } from '@ant-design/icons';
import { useConfirmQrCode } from '../api/confirm-qr-code';
import { useScanQrCode } from '../api/scan-qr-code';

export const QR_CONFIRM_QUESTION = '确认在电脑端登录？';

/** Shown to a signed-in user (on a phone) who opened `/login?qr=<key>`: marks the code scanned, then confirms. */
export function QrConfirmCard({ qrKey, onDone }: { qrKey: string; onDone: () => void }) {
  const scan = useScanQrCode();
  const confirm = useConfirmQrCode();
  const scanned = useRef(false);

  useEffect(() => {
    if (scanned.current) return;
    scanned.current = true;
    scan.mutate(qrKey);
  }, [qrKey, scan]);

  if (confirm.isSuccess) {
    return (
      <Card className="login-card">
        <LazyResult
          status="success"
          title="已确认登录"
          subTitle="电脑端将自动完成登录"
          extra={
            <Button type="primary" onClick={onDone}>
              返回
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Card className="login-card">
      <LazyResult
        icon={<DesktopOutlined style={{ color: '#1f6fb2' }} />}
        title={QR_CONFIRM_QUESTION}
        subTitle={scan.isError ? '二维码无效或已过期，请在电脑端刷新二维码' : '确认后，电脑端将使用您的账号登录'}
        extra={
          <Space>
            <Button onClick={onDone}>取消</Button>
            <Button
              type="primary"
              disabled={scan.isError}
              loading={confirm.isPending}
              onClick={() => confirm.mutate(qrKey)}
            >
              确认登录
            </Button>
          </Space>
        }
      />
    </Card>
  );
}
