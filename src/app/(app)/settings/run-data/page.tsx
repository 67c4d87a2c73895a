import type { Metadata } from 'next';
import { RunDataPage } from '@/features/data-settings/run-data-page';

export const metadata: Metadata = { title: 'Run data · Clinflow' };

export default function Page() {
  return <RunDataPage />;
}
