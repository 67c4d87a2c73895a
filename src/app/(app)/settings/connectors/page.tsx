import type { Metadata } from 'next';
import { ConnectorsPage } from '@/features/connectors/connectors-page';

export const metadata: Metadata = { title: 'Connectors · Clinflow' };

export default function Page() {
  return <ConnectorsPage />;
}
