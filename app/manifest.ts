import type { MetadataRoute } from "next";

/** The installable app: opens on the card queue; push notifications deep-link into it. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Permissions Cockpit",
    short_name: "Cockpit",
    description: "Answer your AI coding agents' permission prompts from anywhere.",
    start_url: "/cards",
    scope: "/",
    display: "standalone",
    background_color: "#f7f7f8",
    theme_color: "#2557d6",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
