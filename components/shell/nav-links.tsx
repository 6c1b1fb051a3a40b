"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { usePendingCount } from "@/lib/cards-client/use-pending-count";

const LINKS = [
  { href: "/cards", label: "Cards", icon: "◉" },
  { href: "/rules", label: "Rules", icon: "☰" },
  { href: "/audit", label: "Audit", icon: "⌕" },
  { href: "/workspaces", label: "Workspaces", icon: "▣" },
  { href: "/settings", label: "Settings", icon: "⚙" },
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
            <span aria-hidden="true">{link.icon}</span>
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
