import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { QueryProvider } from "@/components/ui/query-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Permissions Cockpit", template: "%s · Permissions Cockpit" },
  description: "See and control what your AI coding agents may do.",
  referrer: "no-referrer",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f7f8" },
    { media: "(prefers-color-scheme: dark)", color: "#111318" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: Next.js stamps its scripts with this request's CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body>
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
