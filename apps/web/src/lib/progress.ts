import NProgress from 'nprogress';
import 'nprogress/nprogress.css';

NProgress.configure({ showSpinner: false });

export function startProgress(): void {
  NProgress.start();
}

export function doneProgress(): void {
  NProgress.done();
}
