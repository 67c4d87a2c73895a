'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import { appError, retryAfterMs } from './errors';
import { api } from './react';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // a 4xx answer will not change by asking again, except a 429: asked again once the limit resets
        retry: (failures, error) => {
          const status = appError(error)?.status ?? 0;
          if (status === 429) return failures < 3;
          return status >= 400 && status < 500 ? false : failures < 2;
        },
        retryDelay: (failures, error) => retryAfterMs(error) ?? Math.min(1000 * 2 ** failures, 30_000),
      },
    },
  });
}

/** Provides the tRPC client and the React Query cache to the signed-in app. */
export function TRPCProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => api.createClient({ links: [httpBatchLink({ url: '/api/trpc' })] }));
  return (
    <api.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </api.Provider>
  );
}
