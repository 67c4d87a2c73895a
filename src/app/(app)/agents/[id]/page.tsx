import type { Metadata } from 'next';
import { AgentPage } from '@/features/agents/agent-page';

export const metadata: Metadata = { title: 'Agent · Clinflow' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AgentPage id={id} />;
}
