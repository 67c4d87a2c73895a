'use client';

import { Check, Copy, KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { appError, errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import type { Agent } from './types';

function curlFor(origin: string, agentId: string, key: string, orgId: string): string {
  return [
    `curl -X POST ${origin}/api/v1/agents/${agentId}/invoke \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "X-Organization-ID: ${orgId}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"input_data": {"text": "Your message to the agent"}}'`,
  ].join('\n');
}

/** How another system calls the deployed agent: a curl line, and a key scoped to this agent only. */
export function InvokePanel({ agent }: { agent: Agent }) {
  const me = api.account.me.useQuery(undefined, { staleTime: 60_000 });
  const [origin, setOrigin] = useState('http://localhost:3000');
  const [key, setKey] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = api.keys.create.useMutation({
    onSuccess: (k) => {
      setKey(k.key);
      toast.success(`Key “${k.name}” created: copy it now, it is not shown again`);
    },
  });
  useEffect(() => setOrigin(window.location.origin), []);
  const curl = curlFor(origin, agent.id, key ?? '<API key>', me.data?.organization.id ?? '<organization id>');

  async function copy() {
    try {
      await navigator.clipboard.writeText(curl);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.info('Select the command and press Ctrl+C (⌘C) to copy it.');
    }
  }

  return (
    <Card>
      <div className="space-y-3 p-5">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Invoke from other systems</h2>
          <p className="text-xs text-slate-500">
            Other systems call the agent with an API key scoped to it. This works only while the agent is deployed
            {agent.status === 'deployed' ? ' (it is).' : ': deploy it first.'}
          </p>
        </div>
        {agent.status !== 'deployed' ? (
          <Alert tone="info">Not deployed: the call below answers 409 AGENT_NOT_DEPLOYED until you deploy the agent.</Alert>
        ) : null}
        <div className="overflow-hidden rounded-md bg-slate-900">
          <div className="flex items-center justify-between border-b border-white/10 py-1 pr-1 pl-4">
            <span className="text-xs text-slate-400">curl</span>
            <Button
              variant="ghost"
              size="sm"
              className="text-slate-300 hover:bg-white/10 hover:text-white"
              onClick={copy}
              icon={copied ? <Check className="size-3.5 text-emerald-400" aria-hidden /> : <Copy className="size-3.5" aria-hidden />}
              aria-label="Copy the invoke command"
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <pre className="overflow-x-auto px-4 py-3 font-mono text-xs leading-relaxed text-slate-100" aria-label="Invoke command">
            {curl}
          </pre>
        </div>
        {key ? (
          <Alert tone="warning" title="Copy the key now — you will not see it again">
            It is filled into the command above and can only invoke this agent (scope agent/{agent.id}:execute). Revoke it in Settings → API keys.
          </Alert>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            icon={<KeyRound className="size-3.5" aria-hidden />}
            loading={create.isPending}
            onClick={() => create.mutate({ name: `Invoke ${agent.name}`.slice(0, 100), scopes: [`agent/${agent.id}:execute`] })}
          >
            Create a key for this agent
          </Button>
        )}
        {create.error ? (
          <Alert>
            {appError(create.error)?.code === 'FORBIDDEN'
              ? 'Only organization admins can create API keys: ask an admin for a key with the scope agent/' + agent.id + ':execute.'
              : errorMessage(create.error)}
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}
