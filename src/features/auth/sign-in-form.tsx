'use client';

import Link from 'next/link';
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { acceptInvitation } from './accept-invitation';
import { AuthCard } from './auth-card';
import { authClient } from './auth-client';
import type { InvitationOffer } from './sign-up-form';
import { useAuthSubmit } from './use-auth-submit';

const joining = (o: { organization: string; role: string }) => `${o.organization} as ${o.role === 'admin' ? 'an admin' : `a ${o.role}`}`;

/**
 * `inviteToken` (from /sign-in?invite=…, the link an admin made for an email that has an account): signing in
 * accepts it, joining that organization as well as one's own. `signedInAs`: the email of a session this browser
 * already has, which can accept without signing in again.
 */
export function SignInForm({ inviteToken, invitation, signedInAs }: { inviteToken?: string; invitation?: InvitationOffer; signedInAs?: string } = {}) {
  const offer = invitation?.valid ? invitation : null;
  const { pending, error, setError, send } = useAuthSubmit();
  const accept = offer && inviteToken ? () => acceptInvitation(inviteToken) : undefined;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!email || !password) {
      setError('Enter your email and password.');
      return;
    }
    await send(() => authClient().signIn.email({ email, password }), accept);
  }

  const signUpHref = inviteToken ? `/sign-up?invite=${encodeURIComponent(inviteToken)}` : '/sign-up';
  // already signed in as the invited person: one click joins, no password asked again
  const joinNow = offer && accept && signedInAs?.toLowerCase() === offer.email;
  return (
    <AuthCard
      title={joinNow ? 'Join an organization' : 'Sign in'}
      subtitle={
        joinNow
          ? `You are invited to join ${joining(offer)}. You keep your other organizations.`
          : offer
            ? `Sign in to join ${joining(offer)}. You keep your other organizations.`
            : 'Welcome back. Sign in to manage your clinical data pipelines.'
      }
      footer={
        <>
          New to Clinflow?{' '}
          <Link href={signUpHref} className="font-medium text-teal-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      {invitation && !invitation.valid ? <Alert className="mb-4">{invitation.problem}</Alert> : null}
      {joinNow ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-600">
            You are signed in as <span className="font-medium text-slate-900">{signedInAs}</span>.
          </p>
          {error ? <Alert>{error}</Alert> : null}
          <Button type="button" loading={pending} className="w-full justify-center" onClick={() => void send(async () => ({ error: null }), accept)}>
            Join {offer.organization}
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            autoFocus
            defaultValue={offer?.email}
            readOnly={!!offer}
            hint={offer ? 'The invitation is for this email.' : undefined}
          />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
          {error ? <Alert>{error}</Alert> : null}
          <Button type="submit" loading={pending} className="w-full justify-center">
            {offer ? 'Sign in and join' : 'Sign in'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
