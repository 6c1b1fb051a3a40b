import type { NextConfig } from "next";

const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

const config: NextConfig = {
  // PGlite ships wasm and data files that must load from node_modules, not a bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "web-tree-sitter", "tree-sitter-bash", "web-push"],
  // Lets parallel checkouts/test runs build side by side (e.g. COCKPIT_DIST_DIR=.next-e2e).
  distDir: process.env.COCKPIT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  devIndicators: false,
  // `npm test` type-checks the whole project with tsc; the production build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default config;
