"use client";
import { useEffect, useState } from "react";
import { formatTime, timeLeft } from "@/lib/cards-client/format";

/** The absence deadline of the card's session queue, counting down. */
export function Deadline({ iso }: { iso: string }) {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span suppressHydrationWarning>
      Denied automatically at {formatTime(iso)}
      {now ? ` (${timeLeft(iso, now)})` : ""} if nobody answers — absence timeout.
    </span>
  );
}
