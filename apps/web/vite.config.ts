import { randomBytes } from 'node:crypto';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = 'http://127.0.0.1:3000';

/** Writes `dist/version.json` with a value that changes on every build; the navigation guard compares it. */
function versionFile(): Plugin {
  return {
    name: 'registry-version-file',
    apply: 'build',
    generateBundle() {
      const version = `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${randomBytes(3).toString('hex')}`;
      this.emitFile({ type: 'asset', fileName: 'version.json', source: `${JSON.stringify({ version })}\n` });
    },
  };
}

/** Vendor chunks that change rarely, so a new build does not invalidate the browser's cache of them. */
const VENDOR_GROUPS = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 },
  {
    name: 'antd-core',
    test: /[\\/]node_modules[\\/](@ant-design[\\/](cssinjs|colors|fast-color)|@rc-component[\\/]util)[\\/]/,
    priority: 25,
  },
  { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 20 },
  { name: 'vendor', test: /[\\/]node_modules[\\/](axios|@tanstack|zustand|dayjs|nprogress)[\\/]/, priority: 10 },
];

export default defineConfig({
  plugins: [react(), versionFile()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/version.json': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/version.json': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    chunkSizeWarningLimit: 1200,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: VENDOR_GROUPS },
      },
    },
  },
});
