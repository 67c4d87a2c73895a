'use client';

import { Building2, ChevronsUpDown } from 'lucide-react';
import { usePathname, useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { WHEN_EXPANDED } from './nav-link';
import { cn } from '@/components/ui/cn';

/** A page of one organization's item (a pipeline, a run, an agent): after a switch, its list instead. */
const ITEM_PAGE = /^\/(pipelines|executions|agents)\/[^/]+/;

/**
 * Which organization this browser session acts in, for a person who belongs to more than one (shown only
 * then). Switching is stored on the session by the server, which checks membership on every request; every
 * query is then asked again, in the new organization. With the navigation folded to icons (the editor), an icon
 * says which organization is active and unfolds the navigation to switch.
 */
export function OrgSwitcher({ onExpand }: { onExpand: () => void }) {
  const utils = api.useUtils();
  const router = useRouter();
  const pathname = usePathname();
  const orgs = api.account.organizations.useQuery(undefined, { staleTime: 60_000 });
  const switchOrg = api.account.switchOrganization.useMutation({
    onSuccess: async (res) => {
      const item = ITEM_PAGE.exec(pathname);
      if (item) router.push(`/${item[1]}`);
      await utils.invalidate();
      toast.success(`Switched to ${res.organization.name}`, { duration: 2000 });
    },
    onError: (e) => {
      toast.error(errorMessage(e));
      void utils.account.organizations.invalidate();
    },
  });
  const list = orgs.data?.organizations ?? [];
  if (list.length < 2) return null;
  const active = list.find((o) => o.active);
  const unfold = () => {
    onExpand();
    // the select is there once the navigation has unfolded
    requestAnimationFrame(() => document.getElementById('org-switcher')?.focus());
  };
  return (
    <>
      <div className="hidden justify-center pb-2 md:group-data-[nav=collapsed]/shell:flex">
        <button
          type="button"
          onClick={unfold}
          aria-label={`Organization: ${active?.name ?? ''}. Unfold the navigation to switch`}
          title={`${active?.name ?? ''} — unfold the navigation to switch organization`}
          className={cn(
            'flex size-9 items-center justify-center rounded-md border border-white/10',
            'bg-white/5 text-slate-300 transition-colors hover:bg-white/10 hover:text-white',
          )}
        >
          <Building2 className="size-4" aria-hidden />
        </button>
      </div>
      <div className={`px-3 pb-2 ${WHEN_EXPANDED}`}>
        <label htmlFor="org-switcher" className="mb-1 block px-1 text-xs font-semibold tracking-wider text-slate-500 uppercase">
          Organization
        </label>
        <div className="relative">
          <Building2 className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
          <select
            id="org-switcher"
            title={active?.name}
            value={active?.id ?? ''}
            disabled={switchOrg.isPending}
            onChange={(e) => switchOrg.mutate({ org_id: e.target.value })}
            className={cn(
              'h-9 w-full appearance-none truncate rounded-md border border-white/10 bg-white/5 pr-8',
              'pl-8 text-sm font-medium text-white transition-colors hover:bg-white/10 focus:border-teal-400',
              'focus:ring-2 focus:ring-teal-400/40 focus:outline-none disabled:opacity-60',
            )}
          >
            {list.map((o) => (
              <option key={o.id} value={o.id} className="bg-slate-900 text-white">
                {o.name}
              </option>
            ))}
          </select>
          <ChevronsUpDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
        </div>
      </div>
    </>
  );
}
