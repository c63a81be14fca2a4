import path from 'node:path';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = import.meta.dirname;
const apiUrl = process.env.TOLLGATE_API_URL ?? 'http://localhost:3000';
// Anchored patterns: a bare '/api' prefix would also proxy the app's own module /api.ts.
const proxiedToApi = ['^/api/', '^/v1(/|$)', '^/healthz$', '^/readyz$'];

export default defineConfig({
  root: webRoot,
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: path.join(webRoot, 'routes'),
      generatedRouteTree: path.join(webRoot, 'routeTree.gen.ts'),
      autoCodeSplitting: true,
    }),
    react(),
  ],
  build: { outDir: path.join(webRoot, '..', 'dist', 'web'), emptyOutDir: true },
  server: {
    port: Number(process.env.TOLLGATE_WEB_PORT ?? 5173),
    strictPort: true,
    proxy: Object.fromEntries(proxiedToApi.map((prefix) => [prefix, { target: apiUrl }])),
  },
});
