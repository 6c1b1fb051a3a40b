"use client";
import { useEffect, useState } from "react";
import { pushKey, subscribePush, unsubscribePush } from "@/lib/client/api";

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

type State = "checking" | "unsupported" | "insecure" | "off" | "on" | "denied";

/** "Enable on this device": registers the service worker, subscribes with the VAPID key and stores the subscription. */
export function PushDevice() {
  const [state, setState] = useState<State>("checking");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    (async () => {
      if (!window.isSecureContext) return setState("insecure");
      if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
        return setState("unsupported");
      if (Notification.permission === "denied") return setState("denied");
      const reg = await navigator.serviceWorker.register("/sw.js");
      const sub = await reg.pushManager.getSubscription();
      setState(sub ? "on" : "off");
    })().catch((e: Error) => {
      setError(e.message);
      setState("unsupported");
    });
  }, []);

  async function enable() {
    setBusy(true);
    setError(null);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "denied" : "off");
        return;
      }
      const keyRes = await pushKey();
      if (!keyRes.ok) throw new Error(keyRes.error);
      const reg = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(keyRes.data.publicKey),
      });
      const json = sub.toJSON();
      const res = await subscribePush({ endpoint: json.endpoint, keys: json.keys });
      if (!res.ok) {
        await sub.unsubscribe();
        throw new Error(res.error);
      }
      setState("on");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function disable() {
    setBusy(true);
    setError(null);
    const reg = await navigator.serviceWorker.getRegistration("/sw.js");
    const sub = await reg?.pushManager.getSubscription();
    if (sub) {
      await unsubscribePush(sub.endpoint);
      await sub.unsubscribe();
    }
    setState("off");
    setBusy(false);
  }

  return (
    <div className="stack">
      {state === "insecure" ? (
        <p className="warning">Push needs HTTPS (or http://localhost). Open the cockpit over HTTPS to enable it.</p>
      ) : null}
      {state === "unsupported" ? (
        <p className="warning">
          This browser does not support web push. On iPhone and iPad, add the cockpit to the Home Screen first (Share →
          Add to Home Screen) and open it from there.
        </p>
      ) : null}
      {state === "denied" ? (
        <p className="warning">
          Notifications are blocked for this site. Allow them in the browser&apos;s site settings, then reload.
        </p>
      ) : null}
      {state === "on" ? (
        <p className="notice">Push is on for this device. A new card opens its page when you tap the notification.</p>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row">
        {state === "off" || state === "checking" ? (
          <button
            type="button"
            className="primary"
            onClick={() => void enable()}
            disabled={busy || state === "checking"}
          >
            Enable on this device
          </button>
        ) : null}
        {state === "on" ? (
          <button type="button" onClick={() => void disable()} disabled={busy}>
            Turn off on this device
          </button>
        ) : null}
      </div>
    </div>
  );
}
