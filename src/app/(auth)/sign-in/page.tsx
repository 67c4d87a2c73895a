import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { SignInForm } from '@/features/auth/sign-in-form';
import { getRuntime } from '@/server/runtime';
import { describeInvitation } from '@/server/services/orgs/members';

export const metadata: Metadata = { title: 'Sign in · Clinflow' };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { invite } = await searchParams;
  const inviteToken = typeof invite === 'string' ? invite.slice(0, 2000) : undefined;
  if (!inviteToken) return <SignInForm />;
  // an invitation for a person with an account: what it offers, and whether this browser is already signed in
  const rt = await getRuntime();
  const invitation = await describeInvitation({ db: rt.db }, inviteToken);
  const session = await rt.auth.api.getSession({ headers: await headers() }).catch(() => null);
  return <SignInForm inviteToken={inviteToken} invitation={invitation} signedInAs={session?.user.email} />;
}
