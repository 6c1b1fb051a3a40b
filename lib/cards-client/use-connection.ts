"use client";
import { useSyncExternalStore } from "react";
import { connectionState, subscribeConnection, type ConnectionState } from "./event-stream";

const REASONS: Record<ConnectionState, string> = {
  connecting: "",
  live: "",
  reconnecting: "",
  offline: "Offline: the cockpit server cannot be reached, so answers cannot be sent. They work again once it is back.",
  ended: "Your session has ended: sign in again to answer.",
};

/** The page's connection (see `ConnectionState`) and, when answering is impossible, why. */
export function useConnection(): { state: ConnectionState; answerable: boolean; reason: string } {
  const state = useSyncExternalStore(subscribeConnection, connectionState, () => "connecting" as const);
  return { state, answerable: state !== "offline" && state !== "ended", reason: REASONS[state] };
}
