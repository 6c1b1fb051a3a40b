"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { usePendingCount } from "@/lib/cards-client/use-pending-count";

// SVG paths (24×24, stroked): icons that render on every font, unlike Unicode glyphs.
const LINKS = [
  { href: "/cards", label: "Cards", icon: "M4 5h16v10H4zM8 19h8M12 15v4" },
  { href: "/rules", label: "Rules", icon: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01" },
  { href: "/audit", label: "Audit", icon: "M11 18a7 7 0 100-14 7 7 0 000 14zM20 20l-4-4" },
  { href: "/workspaces", label: "Workspaces", icon: "M3 7h7l2 2h9v10H3z" },
  {
    href: "/settings",
    label: "Settings",
    icon: "M12 15a3 3 0 100-6 3 3 0 000 6zM19 12a7 7 0 00-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 00-2-1.2L14 3h-4l-.5 2.6a7 7 0 00-2 1.2l-2.4-1-2 3.4 2 1.6a7 7 0 000 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 002 1.2L10 21h4l.5-2.6a7 7 0 002-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z",
  },
];

/** Primary navigation; a sidebar on desktop and a bottom bar on phones (see globals.css). The Cards badge is live. */
export function NavLinks({ pendingCount }: { pendingCount?: number }) {
  const pathname = usePathname();
  const live = usePendingCount();
  const count = pendingCount ?? live;
  return (
    <nav className="nav" aria-label="Main">
      {LINKS.map((link) => {
        const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <Link key={link.href} href={link.href} aria-current={current ? "page" : undefined}>
            <svg
              width="20"
              height="20"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
              focusable="false"
            >
              <path d={link.icon} />
            </svg>
            <span>{link.label}</span>
            {link.href === "/cards" && count ? (
              <span className="badge" aria-label={`${count} pending`} data-testid="pending-badge">
                {count}
              </span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
