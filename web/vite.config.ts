/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import preact from "@preact/preset-vite";

// `npm run dev` proxies the API to a `brass serve` on 127.0.0.1:8000 (BRASS_API to change).
const api = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.BRASS_API ?? "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [preact()],
  // The board data lives in ../data (one source of truth with the engine).
  server: {
    host: "127.0.0.1",
    fs: { allow: [".."] },
    proxy: {
      "/api": api,
      "/ws": { target: api.replace(/^http/, "ws"), ws: true },
    },
  },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  test: { include: ["src/**/*.test.ts"], environment: "node" },
});
