import type { Metadata } from 'next';
import { SignUpForm } from '@/features/auth/sign-up-form';

export const metadata: Metadata = { title: 'Create account · Clinflow' };

export default function Page() {
  return <SignUpForm />;
}
