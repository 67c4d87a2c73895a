import type { Metadata } from 'next';
import { SignUpForm } from '@/features/auth/sign-up-form';

export const metadata: Metadata = { title: 'Create account · Clinflow' };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { setup } = await searchParams;
  return <SignUpForm setupToken={typeof setup === 'string' ? setup : undefined} />;
}
