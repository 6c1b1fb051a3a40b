/**
 * Icons as inline SVG: they render the same on every font and platform (Unicode glyphs like ⚠ or ✓ do not).
 * Decorative by default (`aria-hidden`); pass `label` when the icon alone carries meaning.
 */
const PATHS = {
  check: "M5 12.5l4.5 4.5L19 7.5",
  x: "M6 6l12 12M18 6L6 18",
  alert: "M12 3.5L2.5 20h19L12 3.5zM12 10v4.5M12 17.5v.01",
  info: "M12 21a9 9 0 100-18 9 9 0 000 18zM12 11v5.5M12 7.5v.01",
  shield: "M12 3l8 3v5.5c0 4.6-3.4 8.3-8 9.5-4.6-1.2-8-4.9-8-9.5V6l8-3z",
  clock: "M12 21a9 9 0 100-18 9 9 0 000 18zM12 7v5l3.5 2",
  arrowRight: "M5 12h14M13 6l6 6-6 6",
  arrowLeft: "M19 12H5M11 6l-6 6 6 6",
  undo: "M9 14L4 9l5-5M4 9h10.5a5.5 5.5 0 010 11H11",
  wifiOff: "M2 8.5a15 15 0 0120 0M5.5 12a10 10 0 0113 0M9 15.5a5 5 0 016 0M12 19v.01M3 3l18 18",
  refresh: "M20 11a8 8 0 10-2.3 5.7M20 4v7h-7",
  key: "M14.5 9.5a4.5 4.5 0 11-2.6 4.1L4 21.5V18h3v-3h3l1.9-1.9M16.5 7.5v.01",
  chevronDown: "M6 9l6 6 6-6",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, label, size = 18 }: { name: IconName; label?: string; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
