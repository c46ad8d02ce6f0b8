import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './app/router';
import { Providers } from './app/providers';
import { createQueryClient } from './app/query-client';
import { connectProgress } from './app/progress-bridge';
import 'antd/dist/antd.css';
import './app/global.css';

const router = createAppRouter();
connectProgress(router);
const queryClient = createQueryClient();

const container = document.getElementById('root');
if (!container) throw new Error('缺少 #root 容器');

createRoot(container).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
