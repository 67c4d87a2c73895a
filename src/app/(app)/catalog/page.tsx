import type { Metadata } from 'next';
import { Suspense } from 'react';
import { CatalogPage } from '@/features/catalog/catalog-page';

export const metadata: Metadata = { title: 'Node catalog · Clinflow' };

export default function Page() {
  return (
    <Suspense>
      <CatalogPage />
    </Suspense>
  );
}
