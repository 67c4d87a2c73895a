import type { Metadata } from 'next';
import { RunDetailPage } from '@/features/runs/run-detail-page';

export const metadata: Metadata = { title: 'Execution · Clinflow' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunDetailPage id={id} />;
}
