import { setupServer } from 'msw/node';

/** The MSW server every web test shares; tests add their handlers with `server.use(...)`. */
export const server = setupServer();
