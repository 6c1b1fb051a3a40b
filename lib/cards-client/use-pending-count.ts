"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { pendingCountQuery } from "./queries";
import { useCardEvents } from "./use-card-events";

const PREFIX = /^\(\d+\)\s+/;

/** "(3) Cards · Permissions Cockpit" while cards wait; the plain title otherwise. */
export function titleWithCount(title: string, count: number): string {
  const base = title.replace(PREFIX, "");
  return count > 0 ? `(${count}) ${base}` : base;
}

/** The live number of pending cards; keeps the tab title prefixed with it. */
export function usePendingCount(): number | undefined {
  useCardEvents();
  const { data } = useQuery({ ...pendingCountQuery(), select: (d) => d.pending });
  useEffect(() => {
    const count = data ?? 0;
    const apply = () => {
      const next = titleWithCount(document.title, count);
      if (next !== document.title) document.title = next;
    };
    apply();
    // Navigations rewrite the title from page metadata; put the count back each time.
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [data]);
  return data;
}
