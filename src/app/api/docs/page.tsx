import type { Metadata } from 'next';
import { ApiReference } from '@/features/api-docs/api-reference';

export const metadata: Metadata = { title: 'API reference · Clinflow' };

export default function Page() {
  return <ApiReference />;
}
