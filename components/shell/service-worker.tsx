"use client";
import { useEffect } from "react";

/** Registers the service worker so the cockpit installs as an app and can receive pushes. */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // Plain http on a LAN address has no service workers; the app still works without one.
    });
  }, []);
  return null;
}
