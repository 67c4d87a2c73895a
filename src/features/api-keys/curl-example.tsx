'use client';

import { useEffect, useState } from 'react';

/** How to call the REST API with a key: a curl line against this server. */
export function CurlExample({ apiKey, orgId }: { apiKey: string; orgId: string }) {
  const [origin, setOrigin] = useState('http://localhost:3000');
  useEffect(() => setOrigin(window.location.origin), []);
  return (
    <pre className="overflow-x-auto rounded-md bg-slate-900 px-4 py-3 font-mono text-xs leading-relaxed text-slate-100">
      <span className="text-slate-500"># list your pipelines</span>
      {'\n'}curl {origin}/api/pipelines \{'\n'}
      {'  '}-H &quot;Authorization: Bearer <span className="text-teal-300">{apiKey}</span>&quot; \{'\n'}
      {'  '}-H &quot;X-Organization-ID: <span className="text-teal-300">{orgId}</span>&quot;
    </pre>
  );
}
