'use client';

import {
  Blocks,
  BookOpen,
  Bot,
  Database,
  History,
  KeyRound,
  LayoutDashboard,
  PanelLeftClose,
  PanelLeftOpen,
  Plug,
  ScrollText,
  Users,
  Workflow,
} from 'lucide-react';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { authClient } from '@/features/auth/auth-client';
import { errorMessage, isUnauthenticated } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { NavLink, WHEN_EXPANDED } from './nav-link';
import { OrgSwitcher } from './org-switcher';
import { SignOutButton } from './sign-out-button';
import { useNavCollapsed } from './use-nav-collapsed';
import { cn } from '@/components/ui/cn';

const GROUP_LABEL = 'hidden px-2.5 pb-1 text-xs font-semibold tracking-wider text-slate-500 uppercase md:block md:group-data-[nav=collapsed]/shell:hidden';

/** Sidebar + content for every signed-in page; sends visitors without a valid session to /sign-in. */
export function AppShell({ children }: { children: ReactNode }) {
  const router = useRouter();
  const me = api.account.me.useQuery(undefined, { staleTime: 60_000 });
  const unauthenticated = me.isError && isUnauthenticated(me.error);
  const inEditor = /^\/pipelines\/[^/]+$/.test(usePathname());
  const [collapsed, setCollapsed] = useNavCollapsed(inEditor);
  const Toggle = collapsed ? PanelLeftOpen : PanelLeftClose;

  useEffect(() => {
    if (!unauthenticated) return;
    // the session cookie is stale or expired: drop it, then ask to sign in again
    void authClient()
      .signOut()
      .catch(() => undefined)
      .finally(() => router.replace('/sign-in'));
  }, [unauthenticated, router]);

  return (
    <div className="group/shell min-h-screen md:flex" data-nav={collapsed ? 'collapsed' : 'expanded'}>
      <aside className="bg-slate-900 md:fixed md:inset-y-0 md:flex md:w-64 md:flex-col md:group-data-[nav=collapsed]/shell:w-14">
        <div
          className={cn(
            'flex h-14 items-center justify-between gap-3 px-4 md:h-16 md:px-5',
            'md:group-data-[nav=collapsed]/shell:justify-center md:group-data-[nav=collapsed]/shell:px-0',
          )}
        >
          <Logo inverted compact={collapsed} />
          <div className="flex min-w-0 items-center gap-2 md:hidden">
            <span className="truncate text-xs text-slate-400">{me.data?.user?.email}</span>
            <SignOutButton compact />
          </div>
        </div>
        <OrgSwitcher onExpand={() => setCollapsed(false)} />
        <nav aria-label="Main" className="flex gap-1 overflow-x-auto px-3 pb-2 md:flex-1 md:flex-col md:gap-6 md:overflow-visible md:py-2">
          <div className="md:space-y-1">
            <NavLink href="/dashboard" icon={<LayoutDashboard className="size-4" aria-hidden />}>
              Dashboard
            </NavLink>
            <NavLink href="/pipelines" icon={<Workflow className="size-4" aria-hidden />}>
              Pipelines
            </NavLink>
            <NavLink href="/executions" icon={<History className="size-4" aria-hidden />}>
              Executions
            </NavLink>
            <NavLink href="/agents" icon={<Bot className="size-4" aria-hidden />}>
              Agents
            </NavLink>
            <NavLink href="/catalog" icon={<Blocks className="size-4" aria-hidden />}>
              Node catalog
            </NavLink>
          </div>
          <div className="md:space-y-1">
            <p className={GROUP_LABEL}>Settings</p>
            <NavLink href="/settings/api-keys" icon={<KeyRound className="size-4" aria-hidden />}>
              API keys
            </NavLink>
            <NavLink href="/settings/members" icon={<Users className="size-4" aria-hidden />}>
              Members
            </NavLink>
            <NavLink href="/settings/connectors" icon={<Plug className="size-4" aria-hidden />}>
              Connectors
            </NavLink>
            <NavLink href="/settings/run-data" icon={<Database className="size-4" aria-hidden />}>
              Run data
            </NavLink>
            <NavLink href="/settings/audit-log" icon={<ScrollText className="size-4" aria-hidden />}>
              Audit log
            </NavLink>
          </div>
          <div className="md:space-y-1">
            <p className={GROUP_LABEL}>Developers</p>
            <NavLink href="/api/docs" external icon={<BookOpen className="size-4" aria-hidden />}>
              API reference
            </NavLink>
          </div>
        </nav>
        <div className="hidden border-t border-white/10 p-3 md:block md:group-data-[nav=collapsed]/shell:px-2">
          <button
            type="button"
            onClick={() => setCollapsed(!collapsed)}
            aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            title={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            aria-expanded={!collapsed}
            className={cn(
              'mb-1 flex w-full items-center gap-2.5 rounded-md px-2.5 py-2 text-sm font-medium text-slate-400 transition-colors',
              'hover:bg-white/5 hover:text-white md:group-data-[nav=collapsed]/shell:justify-center md:group-data-[nav=collapsed]/shell:px-0',
            )}
          >
            <Toggle className="size-4 shrink-0" aria-hidden />
            <span className={WHEN_EXPANDED}>Collapse</span>
          </button>
          <div className={`mb-2 px-2.5 py-1 ${WHEN_EXPANDED}`}>
            {me.data ? (
              <>
                <p className="truncate text-sm font-medium text-white" title={me.data.organization.name}>
                  {me.data.organization.name}
                </p>
                <p className="truncate text-xs text-slate-400" title={me.data.user?.email}>
                  {me.data.user?.email ?? 'API key'}
                </p>
              </>
            ) : (
              <div className="space-y-1.5" aria-hidden>
                <div className="h-3.5 w-32 animate-pulse rounded bg-white/10" />
                <div className="h-3 w-40 animate-pulse rounded bg-white/10" />
              </div>
            )}
          </div>
          <SignOutButton />
        </div>
      </aside>
      <div className="min-w-0 flex-1 md:pl-64 md:group-data-[nav=collapsed]/shell:pl-14">
        <main className="mx-auto max-w-6xl px-4 py-8 sm:px-8">
          {me.isSuccess ? (
            children
          ) : me.isError && !unauthenticated ? (
            <div className="mx-auto max-w-lg space-y-3">
              <Alert title="Could not load your account">{errorMessage(me.error)}</Alert>
              <Button variant="secondary" onClick={() => void me.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <Spinner label={unauthenticated ? 'Redirecting to sign in…' : 'Loading…'} />
          )}
        </main>
      </div>
    </div>
  );
}
