/**
 * The app's one date format, in the viewer's time zone: "14:02" today, "3 Dec 14:02" earlier this year,
 * "3 Dec 2025 14:02" before that. Every page shows times through this (components/ui/time.tsx).
 */
export function formatTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  if (d.toDateString() === now.toDateString()) return time;
  const year = d.getFullYear() === now.getFullYear() ? undefined : "numeric";
  return `${d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year })} ${time}`;
}

/** "just now", "3 min ago", "2 h ago", "yesterday", then the date: how long a request has waited. */
export function relativeAge(iso: string, now: Date = new Date()): string {
  const ms = now.getTime() - new Date(iso).getTime();
  if (Number.isNaN(ms)) return iso;
  const s = Math.round(ms / 1000);
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  if (h < 48) return "yesterday";
  return formatTime(iso, now);
}
