'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authErrorMessage } from './auth-client';

/** Pending/error state of the sign-in and sign-up forms: run the better-auth call, then go to the app. */
export function useAuthSubmit() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** `then`: a step after a successful call (accepting an invitation); what it returns is shown as the error. */
  async function send(call: () => Promise<{ error: unknown }>, then?: () => Promise<string | null>) {
    setPending(true);
    setError(null);
    try {
      const { error: failure } = await call();
      if (failure) {
        setError(authErrorMessage(failure));
        return;
      }
      const problem = then ? await then() : null;
      if (problem) {
        setError(problem);
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

  return { pending, error, setError, send };
}
