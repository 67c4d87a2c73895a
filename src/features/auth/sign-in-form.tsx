'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { AuthCard } from './auth-card';
import { authClient, authErrorMessage } from './auth-client';

export function SignInForm() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!email || !password) {
      setError('Enter your email and password.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { error } = await authClient().signIn.email({ email, password });
      if (error) {
        setError(authErrorMessage(error));
        return;
      }
      router.replace('/pipelines');
      router.refresh();
    } catch {
      setError('Could not reach the Clinflow server. Check your connection and try again.');
    } finally {
      setPending(false);
    }
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
