"use client";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { pushKey, subscribePush, unsubscribePush, unwrap } from "@/lib/client/api";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

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

  const enable = useMutation({
    mutationFn: async (): Promise<State> => {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") return permission === "denied" ? "denied" : "off";
      const { publicKey } = await unwrap(pushKey());
      const reg = await navigator.serviceWorker.register("/sw.js");
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      const json = sub.toJSON();
      try {
        await unwrap(subscribePush({ endpoint: json.endpoint, keys: json.keys }));
      } catch (e) {
        await sub.unsubscribe();
        throw e;
      }
      return "on";
    },
    onMutate: () => setError(null),
    onSuccess: setState,
  });
  const disable = useMutation({
    mutationFn: async () => {
      const reg = await navigator.serviceWorker.getRegistration("/sw.js");
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        await unwrap(unsubscribePush(sub.endpoint));
        await sub.unsubscribe();
      }
    },
    onMutate: () => setError(null),
    onSuccess: () => setState("off"),
  });
  const shown = error ?? enable.error?.message ?? disable.error?.message ?? null;

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
        <Notice>Push is on for this device. A new card opens its page when you tap the notification.</Notice>
      ) : null}
      {shown ? <Alert>{shown}</Alert> : null}
      <div className="row">
        {state === "off" || state === "checking" ? (
          <Button
            variant="primary"
            onClick={() => enable.mutate()}
            disabled={state === "checking"}
            busy={enable.isPending}
          >
            Enable on this device
          </Button>
        ) : null}
        {state === "on" ? (
          <Button onClick={() => disable.mutate()} busy={disable.isPending}>
            Turn off on this device
          </Button>
        ) : null}
      </div>
    </div>
  );
}
