"use client";
import { useState } from "react";
import { setAllowHosts } from "@/lib/client/api";

/** Private hosts webhooks may reach (a self-hosted ntfy on the LAN, say); exact host names only. */
export function AllowHosts({ initial, envHosts }: { initial: string[]; envHosts: string[] }) {
  const [hosts, setHosts] = useState(initial);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function save(next: string[]) {
    setError(null);
    const res = await setAllowHosts(next);
    if (!res.ok) return setError(res.error);
    setHosts(res.data.hosts);
    setDraft("");
  }

  return (
    <div className="stack">
      <form
        className="row"
        style={{ alignItems: "flex-end" }}
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.trim()) void save([...hosts, draft.trim()]);
        }}
        aria-label="Allow a private host"
      >
        <div className="field">
          <label htmlFor="allow-host">Host</label>
          <input
            id="allow-host"
            placeholder="ntfy.lan or 192.168.1.20"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <button type="submit" disabled={!draft.trim()}>
          Allow host
        </button>
      </form>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="row" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Allowed private hosts">
        {hosts.map((h) => (
          <li key={h} className="row" style={{ gap: "0.25rem" }}>
            <span className="tag mono">{h}</span>
            <button type="button" onClick={() => void save(hosts.filter((x) => x !== h))} aria-label={`Remove ${h}`}>
              ✕
            </button>
          </li>
        ))}
        {envHosts.map((h) => (
          <li key={`env-${h}`}>
            <span className="tag mono" title="from COCKPIT_WEBHOOK_ALLOW_HOSTS">
              {h} (env)
            </span>
          </li>
        ))}
        {hosts.length + envHosts.length === 0 ? (
          <li className="muted">None: private, loopback and link-local addresses are refused.</li>
        ) : null}
      </ul>
    </div>
  );
}
