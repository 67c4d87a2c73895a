import type { Metadata } from 'next';
import { EditorPage } from '@/features/editor/editor-page';

export const metadata: Metadata = { title: 'Pipeline editor · Clinflow' };

/** /pipelines/{id}; `?debug=<execution id>` opens it with that run's inputs and its results in the drawer. */
export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const { debug } = await searchParams;
  return <EditorPage id={id} debugRun={typeof debug === 'string' ? debug : undefined} />;
}
