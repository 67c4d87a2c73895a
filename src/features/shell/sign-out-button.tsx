'use client';

import { useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { cn } from '@/components/ui/cn';
import { authClient } from '@/features/auth/auth-client';

export function SignOutButton({ compact }: { compact?: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    try {
      const { error } = await authClient().signOut();
      if (error) {
        toast.error(error.message ?? 'Could not sign out.');
        return;
      }
      queryClient.clear();
      router.replace('/sign-in');
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <button
      type="button"
      onClick={signOut}
      disabled={pending}
      title="Sign out"
      className={cn(
        'flex items-center gap-2.5 rounded-md text-sm font-medium text-slate-300 transition-colors hover:bg-white/5 hover:text-white disabled:opacity-50',
        compact ? 'shrink-0 px-2 py-1.5' : 'w-full px-2.5 py-2 md:group-data-[nav=collapsed]/shell:justify-center md:group-data-[nav=collapsed]/shell:px-0',
      )}
    >
      <LogOut className="size-4 shrink-0" aria-hidden />
      <span className={compact ? undefined : 'md:group-data-[nav=collapsed]/shell:sr-only'}>{pending ? 'Signing out…' : 'Sign out'}</span>
    </button>
  );
}
