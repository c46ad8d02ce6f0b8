import type { AuthContext } from '../modules/auth/session.service';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyContextConfig {
    /** Reachable without a session. Every route must say `public: true` or give a `permission`. */
    public?: boolean;
    /** The permission code needed, or null for any signed-in user. */
    permission?: string | null;
    /** Also accept the token from `?access_token=` (file preview links opened by the browser). */
    queryToken?: boolean;
    /** False when the route is opened by browser navigation or `<img>` and cannot send `X-App-Code`. */
    appCode?: boolean;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export {};
