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

/** Why an address is not a public unicast address, or null when it is. */
export function ipRefusal(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return `${ip} is not an IP address`;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range === "unicast") return null;
  const names: Record<string, string> = {
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
  return `${addr.toString()} is ${names[range] ?? `a non-public address (${range})`}`;
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
