import type { Metadata } from 'next';
import { ApiKeysPage } from '@/features/api-keys/api-keys-page';

export const metadata: Metadata = { title: 'API keys · Clinflow' };

export default function Page() {
  return <ApiKeysPage />;
}
