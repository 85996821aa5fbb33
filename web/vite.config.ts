/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import preact from "@preact/preset-vite";
import { VitePWA } from "vite-plugin-pwa";

// `npm run dev` proxies the API to a `brass serve` on 127.0.0.1:8000 (BRASS_API to change).
const api = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.BRASS_API ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [
    preact(),
    // The installable app: the manifest, the icons (from public/icon.svg, see pwa-assets.config.ts)
    // and our own service worker (src/sw.ts: what it caches and how it updates). Registered by a
    // deferred script the plugin adds to index.html; nothing of it runs under `npm run dev`.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      injectRegister: "script-defer",
      pwaAssets: { config: true, overrideManifestIcons: true },
      manifest: {
        name: "Brass: Birmingham",
        short_name: "Brass",
        description: "Brass: Birmingham online: play with friends or bots, live or by correspondence.",
        start_url: "/",
        scope: "/",
        id: "/",
        display: "standalone",
        theme_color: "#3b2a1a", // the game's header bar
        background_color: "#f6f1e6", // the page
      },
      injectManifest: {
        // the shell: pages, code (the board data is in it), styles and icons; the fonts (2 MB of
        // Korean subsets) are cached by the worker as a page uses them, not at install
        globPatterns: ["**/*.{html,js,css,ico,png,svg}"],
      },
    }),
  ],
  // The board data lives in ../data (one source of truth with the engine).
  server: {
    host: "127.0.0.1",
    fs: { allow: [".."] },
    proxy: {
      "/api": api,
      "/ws": { target: api.replace(/^http/, "ws"), ws: true },
    },
  },
  build: {
    outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000,
    // offline.html: the "no connection" page the service worker shows
    rollupOptions: { input: { main: "index.html", offline: "offline.html" } },
  },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});
