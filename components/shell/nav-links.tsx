"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/cards", label: "Cards", icon: "◉" },
  { href: "/rules", label: "Rules", icon: "☰" },
  { href: "/audit", label: "Audit", icon: "⌕" },
  { href: "/workspaces", label: "Workspaces", icon: "▣" },
  { href: "/settings", label: "Settings", icon: "⚙" },
];

/** Primary navigation; a sidebar on desktop and a bottom bar on phones (see globals.css). */
export function NavLinks({ pendingCount }: { pendingCount?: number }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      {LINKS.map((link) => {
        const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <Link key={link.href} href={link.href} aria-current={current ? "page" : undefined}>
            <span aria-hidden="true">{link.icon}</span>
            <span>{link.label}</span>
            {link.href === "/cards" && pendingCount ? (
              <span className="badge" aria-label={`${pendingCount} pending`}>
                {pendingCount}
              </span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}
