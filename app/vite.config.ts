/**
 * Builds the web app into app/dist: static files that the server serves under `<PUBLIC_URL path>/app/`
 * (src/pages/web-app.ts). The base is relative: the server adds a `<base href>` to index.html, so
 * one build works under any path prefix and at every deep link.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline scripts or data: modules, so the strict Content-Security-Policy holds.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
    // Read by the server (src/web/preload.ts) to announce the editor's chunk on the editor's addresses.
    manifest: true,
  },
});
