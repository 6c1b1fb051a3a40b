import dns from "node:dns";
import ipaddr from "ipaddr.js";
import { ValidationError } from "@/lib/errors";

/** A webhook or push target the SSRF policy refuses; the message is shown to the admin. */
export class RefusedTargetError extends ValidationError {}

export type LookupAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookupAll: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Cloud metadata services reachable by name; their addresses are link-local or private anyway. */
const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.com",
]);

const NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  uniqueLocal: "a private (unique local) address",
  unspecified: "the unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  carrierGradeNat: "a carrier-grade NAT (shared) address",
  reserved: "a reserved address",
};

const v4At = (bytes: number[], at: number) => new ipaddr.IPv4(bytes.slice(at, at + 4));
const zero = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/**
 * IPv6 forms that carry an IPv4 address a router or the OS may turn into an IPv4 connection:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated; URLs
 * normalise `[::127.0.0.1]` to `[::7f00:1]`), NAT64 (64:ff9b::/96), 6to4 (2002:a.b.c.d::/48) and Teredo
 * (2001:0::/32, server and obfuscated client address). Returns every embedded IPv4 address with its form.
 */
function embeddedIPv4(addr: ipaddr.IPv6): { form: string; v4: ipaddr.IPv4; translate: boolean }[] {
  const b = addr.toByteArray();
  const out: { form: string; v4: ipaddr.IPv4; translate: boolean }[] = [];
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff)
    out.push({ form: "IPv4-mapped", v4: v4At(b, 12), translate: true });
  else if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12))
    out.push({ form: "IPv4-translated", v4: v4At(b, 12), translate: true });
  else if (zero(b, 0, 12) && !zero(b, 12, 15))
    // Not :: or ::1 (their own ranges), but anything else in ::/96.
    out.push({ form: "IPv4-compatible", v4: v4At(b, 12), translate: false });
  else if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12))
    out.push({ form: "NAT64", v4: v4At(b, 12), translate: true });
  else if (b[0] === 0x20 && b[1] === 0x02) out.push({ form: "6to4", v4: v4At(b, 2), translate: false });
  else if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) {
    out.push({ form: "Teredo", v4: v4At(b, 4), translate: false });
    out.push({ form: "Teredo", v4: new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff)), translate: false });
  }
  return out;
}

/** Why an address is not a public unicast address, or null when it is. */
export function ipRefusal(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return `${ip} is not an IP address`;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    const embedded = embeddedIPv4(v6);
    for (const e of embedded) {
      const inner = ipRefusal(e.v4.toString());
      if (inner) return `${inner} (inside the ${e.form} IPv6 address ${v6.toString()})`;
    }
    // Mapped, translated and NAT64 addresses reach their IPv4 address: judge that one.
    const direct = embedded.find((e) => e.translate);
    if (direct) addr = direct.v4;
    else if (embedded[0]?.form === "IPv4-compatible")
      return `${v6.toString()} is a deprecated IPv4-compatible IPv6 address (${embedded[0].v4.toString()})`;
    else if (v6.match(ipaddr.IPv6.parse("64:ff9b:1::"), 48))
      return `${v6.toString()} is a local-use NAT64 address (64:ff9b:1::/48)`;
  }
  const range = addr.range();
  if (range === "unicast") return null;
  return `${addr.toString()} is ${NAMES[range] ?? `a non-public address (${range})`}`;
}

/** Host as the allow list names it: lower case, IPv6 without brackets. */
export function hostKey(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
}

export function parseAllowHosts(list: string): string[] {
  return list
    .split(",")
    .map((h) => hostKey(h.trim()))
    .filter(Boolean);
}

/** Only http(s) URLs without credentials; the WHATWG parser already normalises decimal/octal/hex IPv4 forms. */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedTargetError(`${raw} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RefusedTargetError(`only http and https URLs are allowed, not ${url.protocol.replace(":", "")}`);
  if (url.username || url.password)
    throw new RefusedTargetError("put credentials in a header or the topic, not in the URL");
  return url;
}

export interface TargetPolicy {
  /** Exact host names or addresses an admin allowed (env COCKPIT_WEBHOOK_ALLOW_HOSTS + Settings). */
  allowHosts: string[];
  lookupAll?: LookupAll;
}

/**
 * Resolves the URL's host and checks every address (A and AAAA). Returns the address to connect to,
 * so the request pins it and a DNS answer that changes in between (rebinding) cannot swap it.
 */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostKey(url.hostname);
  const allowed = policy.allowHosts.includes(host);
  if (ipaddr.isValid(host)) {
    const refusal = allowed ? null : ipRefusal(host);
    if (refusal)
      throw new RefusedTargetError(`refused: ${refusal}; an admin can allow this host in Settings → Notifications`);
    return { address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 };
  }
  if (!allowed && METADATA_HOSTS.has(host)) {
    throw new RefusedTargetError(`refused: ${host} is a cloud metadata host`);
  }
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = await (policy.lookupAll ?? systemLookupAll)(host);
  } catch (error) {
    throw new RefusedTargetError(
      `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (addresses.length === 0) throw new RefusedTargetError(`${host} does not resolve`);
  if (!allowed) {
    for (const a of addresses) {
      const refusal = ipRefusal(a.address);
      if (refusal)
        throw new RefusedTargetError(
          `refused: ${host} resolves to ${refusal}; an admin can allow this host in Settings → Notifications`,
        );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
