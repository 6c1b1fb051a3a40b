import { ValidationError } from "@/lib/errors";
import { callServer } from "../server-client";
import { type Verb } from "../verb";

export const loginLinkVerb: Verb = {
  name: "login-link",
  summary: "print a fresh one-time owner login link (needs the running server)",
  usage: `Usage: cockpit login-link

Prints a new one-time login URL for the owner as the last line. The link works once
and expires after 15 minutes (COCKPIT_LOGIN_TTL_SECONDS). Needs the running cockpit;
COCKPIT_DATA must point at the same data folder as the server.`,
  async run(argv) {
    if (argv.length > 0) throw new ValidationError(`unexpected argument "${argv[0]}"`);
    const link = await callServer<{ url: string; expiresAt: string }>("POST", "/api/local/login-link");
    process.stdout.write(`One-time login link (expires ${link.expiresAt}):\n${link.url}\n`);
    return 0;
  },
};
