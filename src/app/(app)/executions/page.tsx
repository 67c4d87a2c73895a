import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RunsPage } from '@/features/runs/runs-page';

export const metadata: Metadata = { title: 'Executions · Clinflow' };

export default function Page() {
  return (
    <Suspense>
      <RunsPage />
    </Suspense>
  );
}
