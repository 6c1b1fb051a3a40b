"use client";
import { useCallback, useState } from "react";
import type { AnswerNotice } from "@/lib/cards-client/use-answer";
import type { ShownNotice } from "./notices";

let next = 1;

/** The latest notice per answered card (each names its request), newest first, at most `max`. */
export function useNotices(max = 10) {
  const [items, setItems] = useState<ShownNotice[]>([]);
  const push = useCallback(
    (n: AnswerNotice) =>
      setItems((list) => [{ ...n, key: next++ }, ...list.filter((o) => o.cardId !== n.cardId)].slice(0, max)),
    [max],
  );
  const dismiss = useCallback((key: number) => setItems((list) => list.filter((n) => n.key !== key)), []);
  return { items, push, dismiss };
}
