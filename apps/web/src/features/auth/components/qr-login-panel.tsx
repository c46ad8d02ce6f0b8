import { useEffect, useRef } from 'react';
import { Button, Spin, Typography } from 'antd';
import { CheckCircleFilled, ReloadOutlined } from '@ant-design/icons';
import type { LoginResponse } from '@registry/shared/contracts/auth';
import { useQrCode } from '../api/get-qr-code';
import { useQrStatus } from '../api/get-qr-status';

export const QR_EXPIRED_TEXT = '二维码已过期，点击刷新';

const STATE_TEXT = {
  pending: '请使用已登录本平台的手机扫描二维码',
  scanned: '已扫码，请在手机上确认登录',
  confirmed: '已确认，正在登录…',
} as const;

/** QR sign-in: shows the code, polls its state every 2 s, signs in once a phone confirmed it. */
export function QrLoginPanel({ onSignedIn }: { onSignedIn: (result: LoginResponse) => void }) {
  const qr = useQrCode(true);
  const status = useQrStatus(qr.data?.key);
  const state = status.data?.state ?? 'pending';
  const signedIn = useRef(false);

  useEffect(() => {
    const data = status.data;
    if (data?.state === 'confirmed' && data.token && !signedIn.current) {
      signedIn.current = true;
      onSignedIn({ token: data.token, expiresAt: data.expiresAt ?? '', initPwd: data.initPwd ?? false });
    }
  }, [status.data, onSignedIn]);

  const refresh = () => void qr.refetch();

  return (
    <div className="qr-panel">
      <div className="qr-frame">
        {qr.data ? <img src={qr.data.imageUrl} alt="登录二维码" width={180} height={180} /> : <Spin />}
        {state === 'expired' && (
          <button type="button" className="qr-overlay" onClick={refresh}>
            <ReloadOutlined style={{ fontSize: 24 }} />
            <span>{QR_EXPIRED_TEXT}</span>
          </button>
        )}
        {state === 'scanned' && (
          <div className="qr-overlay">
            <CheckCircleFilled style={{ fontSize: 28, color: '#52c41a' }} />
          </div>
        )}
      </div>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {state === 'expired' ? '二维码已失效' : STATE_TEXT[state]}
      </Typography.Paragraph>
      {qr.isError && (
        <Button type="link" icon={<ReloadOutlined />} onClick={refresh}>
          重新获取二维码
        </Button>
      )}
    </div>
  );
}
