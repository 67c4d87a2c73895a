'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { AuthCard } from './auth-card';
import { authClient } from './auth-client';
import { useAuthSubmit } from './use-auth-submit';

const MIN_PASSWORD = 8;

/** What an invitation link offers (see describeInvitation), read by the page on the server. */
export type InvitationOffer =
  { valid: true; organization: string; role: 'admin' | 'member' | 'viewer'; email: string; expires_at: string } | { valid: false; problem: string };

/**
 * `setupToken`: the one-time token printed at start (from /sign-up?setup=…): this sign-up joins the start-up
 * organization. `inviteToken` (from /sign-up?invite=…): it joins the organization that invited this email.
 */
export function SignUpForm({ setupToken, inviteToken, invitation }: { setupToken?: string; inviteToken?: string; invitation?: InvitationOffer }) {
  const offer = invitation?.valid ? invitation : null;
  const { pending, error, setError, send } = useAuthSubmit();
  const [fields, setFields] = useState<{ name?: string; email?: string; password?: string }>({});

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const invalid: typeof fields = {};
    if (!name) invalid.name = 'Enter your name.';
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) invalid.email = 'Enter an email address like name@hospital.org.';
    if (password.length < MIN_PASSWORD) invalid.password = `Use at least ${MIN_PASSWORD} characters.`;
    setFields(invalid);
    if (Object.keys(invalid).length > 0) return;
    const headers: Record<string, string> = {};
    if (setupToken) headers['x-setup-token'] = setupToken;
    if (inviteToken) headers['x-invite-token'] = inviteToken;
    await send(() => authClient().signUp.email({ name, email, password, fetchOptions: { headers } }));
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        offer
          ? `You are invited to join ${offer.organization} as ${offer.role === 'admin' ? 'an admin' : `a ${offer.role}`}.`
          : setupToken
            ? 'With the setup link printed at start, you become the admin of the organization this server created.'
            : 'You become the admin of your organization and can invite API clients with keys.'
      }
      footer={
        <>
          Already have an account?{' '}
          <Link href={inviteToken ? `/sign-in?invite=${encodeURIComponent(inviteToken)}` : '/sign-in'} className="font-medium text-teal-700 hover:underline">
            {offer ? 'Sign in to join' : 'Sign in'}
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField label="Name" name="name" autoComplete="name" required autoFocus error={fields.name} />
        {invitation && !invitation.valid ? <Alert>{invitation.problem} Signing up now gives you an organization of your own.</Alert> : null}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={fields.email}
          defaultValue={offer?.email}
          readOnly={!!offer}
          hint={offer ? 'The invitation is for this email.' : undefined}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD}
          hint={`At least ${MIN_PASSWORD} characters.`}
          error={fields.password}
        />
        {error ? <Alert>{error}</Alert> : null}
        <Button type="submit" loading={pending} className="w-full justify-center">
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
