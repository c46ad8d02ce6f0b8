import { useEffect } from 'react';
import { isRouteErrorResponse, Outlet, useLocation, useNavigate, useRouteError } from 'react-router';
import { registerNavigator } from '../lib/navigation-bridge';
import { routeTitle } from '../config/routes';

const APP_TITLE = '临床科研患者登记平台';

/** The root route's element: connects the router to code outside React and keeps the document title. */
export function Root() {
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    registerNavigator((to, options) => void navigate(to, options));
    return () => registerNavigator(null);
  }, [navigate]);

  useEffect(() => {
    const title = routeTitle(pathname);
    document.title = title ? `${title} - ${APP_TITLE}` : APP_TITLE;
  }, [pathname]);

  return <Outlet />;
}

/** Shown while the first route's guard and page load. */
export function RootFallback() {
  return (
    <div className="root-state" role="status">
      正在加载…
    </div>
  );
}

/** A page that failed to load (e.g. a chunk removed by a new deployment) or threw: say so and offer a reload. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  return (
    <div className="root-state" role="alert">
      <h1>页面加载失败</h1>
      <p>可能是网络中断或系统刚刚升级，请刷新页面后重试。{detail ? `（${detail}）` : ''}</p>
      <button type="button" onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </div>
  );
}
