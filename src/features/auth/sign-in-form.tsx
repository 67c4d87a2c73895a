'use client';

import Link from 'next/link';
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { AuthCard } from './auth-card';
import { authClient } from './auth-client';
import { useAuthSubmit } from './use-auth-submit';

export function SignInForm() {
  const { pending, error, setError, send } = useAuthSubmit();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!email || !password) {
      setError('Enter your email and password.');
      return;
    }
    await send(() => authClient().signIn.email({ email, password }));
  }

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your clinical data pipelines."
      footer={
        <>
          New to Clinflow?{' '}
          <Link href="/sign-up" className="font-medium text-teal-700 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField label="Email" name="email" type="email" autoComplete="email" required autoFocus />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        {error ? <Alert>{error}</Alert> : null}
        <Button type="submit" loading={pending} className="w-full justify-center">
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
