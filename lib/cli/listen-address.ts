/** Where `cockpit start` listens, and whether that deserves a warning. */

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The URL the launcher and the CLI use to reach the server on this machine. */
export function localUrl(host: string, port: number): string {
  if (WILDCARDS.has(host)) return `http://127.0.0.1:${port}`;
  const h = host.replace(/^\[|\]$/g, "");
  return `http://${h.includes(":") ? `[${h}]` : h}:${port}`;
}

/**
 * A warning when the server is reachable beyond this machine without https: login links, session
 * cookies and approvals would cross the network in clear text, and phones cannot use push.
 */
export function exposureWarning(host: string, publicUrl: string | undefined): string | null {
  if (isLoopbackHost(host)) return null;
  if (publicUrl?.startsWith("https://")) return null;
  return (
    `warning: listening on ${host}, beyond this machine, without an https COCKPIT_PUBLIC_URL.\n` +
    `  Anyone on the network can reach the login page, and sign-in links, session cookies and answers\n` +
    `  travel unencrypted. Put the cockpit behind https (a reverse proxy or \`tailscale serve\`) and set\n` +
    `  COCKPIT_PUBLIC_URL=https://…, or keep COCKPIT_HOST=127.0.0.1 (README: "Approve from your phone").`
  );
}
