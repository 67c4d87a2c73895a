import type { Metadata } from 'next';
import { Suspense } from 'react';
import { PipelinesPage } from '@/features/pipelines/pipelines-page';

export const metadata: Metadata = { title: 'Pipelines · Clinflow' };

export default function Page() {
  return (
    <Suspense>
      <PipelinesPage />
    </Suspense>
  );
}
