import { lazy, Suspense } from 'react';
import type { AlertProps } from 'antd';

/**
 * antd's `Alert` for the notices a page shows only in some states (a load that failed, a read-only or locked form, a
 * version to upgrade to): loaded when first shown, not with the page (quality P7).
 */
// eslint-disable-next-line local/no-deep-antd-import -- quality P7: a chunk of Alert alone, not antd's index
const Alert = lazy(() => import('antd/es/alert'));

export function LazyAlert(props: AlertProps) {
  return (
    <Suspense fallback={null}>
      <Alert {...props} />
    </Suspense>
  );
}
