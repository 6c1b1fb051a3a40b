"use client";
import { useEffect, useState } from "react";
import { formatTime, relativeAge } from "@/lib/client/time";

/**
 * A moment in the app's one date format ("14:02" today, "3 Dec 14:02" this year, "3 Dec 2025 14:02" before),
 * in the viewer's time zone, with the full date and time on hover. `relative` shows "3 min ago" instead,
 * kept fresh every 30 s.
 */
export function Time({ iso, relative = false, prefix }: { iso: string; relative?: boolean; prefix?: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!relative) return;
    const t = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(t);
  }, [relative]);
  const full = formatTime(iso, new Date(0));
  return (
    <time dateTime={iso} title={full} suppressHydrationWarning>
      {prefix}
      {relative ? relativeAge(iso, now) : formatTime(iso, now)}
    </time>
  );
}
