import { useMemo, type ReactNode } from 'react';
// The hooks alone, as antd's `App` imports them: `Modal` and `message` from the package index bring the static
// methods (and their render root) with them.
import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import { TOAST_CONFIG } from '../../lib/toast';
import { FeedbackContext } from './feedback-context';

/**
 * Gives its children `useFeedback()`: the hook instances of antd's modal and message, whose dialogs and toasts render
 * here, inside the ConfigProvider. What antd's `App` gave through `App.useApp()`, without its notification API (the
 * app has no notifications) and its wrapper element.
 */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [modal, modalHolder] = useModal();
  const [message, messageHolder] = useMessage(TOAST_CONFIG);
  const value = useMemo(() => ({ modal, message }), [modal, message]);
  return (
    <FeedbackContext.Provider value={value}>
      {modalHolder}
      {messageHolder}
      {children}
    </FeedbackContext.Provider>
  );
}
