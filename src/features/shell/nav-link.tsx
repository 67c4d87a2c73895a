'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

const BASE = [
  'flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm font-medium transition-colors',
  'md:group-data-[nav=collapsed]/shell:justify-center md:group-data-[nav=collapsed]/shell:px-0',
].join(' ');
/** The label hides when the navigation is collapsed to icons (the link keeps it as its name and tooltip). */
const LABEL = 'md:group-data-[nav=collapsed]/shell:sr-only';
/** Shown only while the navigation is expanded (on wide screens). */
export const WHEN_EXPANDED = 'md:group-data-[nav=collapsed]/shell:hidden';
const IDLE = 'text-slate-300 hover:bg-white/5 hover:text-white';
const ACTIVE = 'bg-white/10 text-white';

export function NavLink({ href, icon, children, external }: { href: string; icon: ReactNode; children: string; external?: boolean }) {
  const pathname = usePathname();
  const active = !external && (pathname === href || pathname.startsWith(`${href}/`));
  if (external) {
    // a separate page outside the app shell (readable without signing in)
    return (
      <a href={href} className={cn(BASE, IDLE)} title={children}>
        {icon}
        <span className={LABEL}>{children}</span>
      </a>
    );
  }
  return (
    <Link href={href} aria-current={active ? 'page' : undefined} className={cn(BASE, active ? ACTIVE : IDLE)} title={children}>
      {icon}
      <span className={LABEL}>{children}</span>
    </Link>
  );
}
