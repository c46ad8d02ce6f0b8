import { useEffect } from 'react';
// eslint-disable-next-line local/no-deep-antd-import -- quality P7: the hook without the static Modal API
import useModal from 'antd/es/modal/useModal';
import type { FeedbackModal } from './feedback-context';

/** antd's modal hook, loaded with its dialog components when the app first asks for a dialog. */
export default function ModalHost({ onReady }: { onReady: (modal: FeedbackModal) => void }) {
  const [modal, holder] = useModal();
  useEffect(() => onReady(modal), [modal, onReady]);
  return holder;
}
