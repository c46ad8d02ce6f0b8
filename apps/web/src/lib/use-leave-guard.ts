import { useEffect, useRef } from 'react';
import { useBlocker, type Location } from 'react-router';
import { useFeedback } from '../components/feedback/feedback-context';

/** Leaving means another path; a page may count more (another patient on the same path). */
export type LeaveTest = (current: Location, next: Location) => boolean;
const otherPath: LeaveTest = (current, next) => current.pathname !== next.pathname;

/**
 * While `dirty`, leaving the page asks first: a navigation inside the app opens a confirm dialog (React Router's
 * blocker), closing or reloading the tab gets the browser's own prompt (beforeunload).
 */
export function useLeaveGuard(dirty: boolean, leaves: LeaveTest = otherPath) {
  const { modal } = useFeedback();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && leaves(currentLocation, nextLocation));

  // One dialog per blocked navigation (the blocker object may change while it waits).
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked') {
      asking.current = false;
      return;
    }
    if (asking.current) return;
    asking.current = true;
    modal.confirm({
      title: '有未保存的修改',
      content: '离开后未保存的修改将丢失，确定离开吗？',
      okText: '离开',
      cancelText: '留在此页',
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
