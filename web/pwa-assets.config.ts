// Every icon of the installable app is made from one drawing (public/icon.svg, also the SVG
// favicon) at build time by @vite-pwa/assets-generator (sharp): favicon.ico, the manifest's
// 64/192/512 and maskable icons, and the 180 px apple-touch icon. The padded ones sit on the client's dark brown.
import { defineConfig, minimal2023Preset } from "@vite-pwa/assets-generator/config";

const brown = "#3b2a1a";

export default defineConfig({
  headLinkOptions: { preset: "2023" },
  preset: {
    ...minimal2023Preset,
    maskable: { ...minimal2023Preset.maskable, resizeOptions: { background: brown } },
    apple: { ...minimal2023Preset.apple, resizeOptions: { background: brown } },
  },
  images: ["public/icon.svg"],
});
