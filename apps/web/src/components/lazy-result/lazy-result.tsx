import { lazy, Suspense } from 'react';
import type { ResultProps } from 'antd';

/**
 * antd's `Result` carries its 403 / 404 / 500 illustrations (about 10 KiB gzip) whatever status it shows, and the
 * pages show it only in their empty, error or no-permission states: loaded when first shown, not with the page.
 */
// eslint-disable-next-line local/no-deep-antd-import -- quality P7: a chunk of Result alone, not antd's index
const Result = lazy(() => import('antd/es/result'));

export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <Result {...props} />
    </Suspense>
  );
}
