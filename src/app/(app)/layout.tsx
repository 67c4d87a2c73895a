import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { AppShell } from '@/features/shell/app-shell';
import { TRPCProvider } from '@/trpc/provider';

/** Signed-in pages. Without a session cookie there is nothing to show: straight to /sign-in. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  if (!jar.getAll().some((c) => c.name.endsWith('better-auth.session_token'))) redirect('/sign-in');
  return (
    <TRPCProvider>
      <AppShell>{children}</AppShell>
      <Toaster position="bottom-right" richColors closeButton />
    </TRPCProvider>
  );
}
