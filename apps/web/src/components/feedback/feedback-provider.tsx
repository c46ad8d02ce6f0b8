import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
// The hook alone, as antd's `App` imports it: `message` from the package index brings the static methods with it.
// eslint-disable-next-line local/no-deep-antd-import -- quality P7: the hook without the static message API
import useMessage from 'antd/es/message/useMessage';
import { TOAST_CONFIG } from '../../lib/toast';
import { deferredModal } from './deferred-modal';
import { FeedbackContext } from './feedback-context';

/** The dialogs (about 9 KiB gzip) are loaded when the app first opens one, not with the first page (quality P7). */
const ModalHost = lazy(() => import('./modal-host'));

/**
 * Gives its children `useFeedback()`: the hook instances of antd's modal and message, whose dialogs and toasts render
 * here, inside the ConfigProvider. What antd's `App` gave through `App.useApp()`, without its notification API (the
 * app has no notifications) and its wrapper element.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [modalWanted, setModalWanted] = useState(false);
  const deferred = useMemo(() => deferredModal(() => setModalWanted(true)), []);
  const [message, messageHolder] = useMessage(TOAST_CONFIG);
  const value = useMemo(() => ({ modal: deferred.modal, message }), [deferred, message]);
  return (
    <FeedbackContext.Provider value={value}>
      {modalWanted && (
        <Suspense fallback={null}>
          <ModalHost onReady={deferred.ready} />
        </Suspense>
      )}
      {messageHolder}
      {children}
    </FeedbackContext.Provider>
  );
}
