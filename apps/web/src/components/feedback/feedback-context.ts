import { createContext, useContext } from 'react';
import type { message, Modal } from 'antd';

export type FeedbackModal = ReturnType<typeof Modal.useModal>[0];
export type FeedbackMessage = ReturnType<typeof message.useMessage>[0];

/** The confirm dialogs and toasts of the app root, rendered inside its ConfigProvider (theme, locale). */
export type Feedback = {
  modal: FeedbackModal;
  message: FeedbackMessage;
};

export const FeedbackContext = createContext<Feedback | null>(null);

/** `{ modal, message }` of the nearest FeedbackProvider (the app root's). */
export function useFeedback(): Feedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback 需要在 FeedbackProvider 之内使用');
  return feedback;
}
