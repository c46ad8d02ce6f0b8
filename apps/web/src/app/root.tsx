import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
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

export function RootFallback() {
  return null;
}
