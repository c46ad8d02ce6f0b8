// Bundles the server into dist/main.js and the audit verification command into dist/audit-verify.js: our own code
// and @registry/shared are bundled (shared is TypeScript source), every other package stays external and is loaded
// from node_modules at run time.
import { build } from 'esbuild';

await build({
  // dist/main.js (the server) and dist/audit-verify.js (`node dist/audit-verify.js`: the audit-chain check)
  entryPoints: { main: 'src/main.ts', 'audit-verify': 'scripts/audit-verify.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalize-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('@registry/')) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
});
