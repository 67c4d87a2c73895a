import type { Metadata } from 'next';
import { SignUpForm } from '@/features/auth/sign-up-form';
import { getRuntime } from '@/server/runtime';
import { describeInvitation } from '@/server/services/orgs/members';

export const metadata: Metadata = { title: 'Create account · Clinflow' };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { setup, invite } = await searchParams;
  const inviteToken = typeof invite === 'string' ? invite.slice(0, 2000) : undefined;
  // what the invitation offers is read here, on the server: the sign-up page has no session to call the API with
  const invitation = inviteToken ? await describeInvitation({ db: (await getRuntime()).db }, inviteToken) : undefined;
  return <SignUpForm setupToken={typeof setup === 'string' ? setup : undefined} inviteToken={inviteToken} invitation={invitation} />;
}
