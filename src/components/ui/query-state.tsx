'use client';

import type { ReactNode } from 'react';
import { errorMessage } from '@/trpc/errors';
import { Alert } from './alert';
import { Button } from './button';
import { Spinner } from './spinner';

interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

/**
 * What a list page shows while its query loads, when it failed (with a way to try again) and when it is
 * empty (a state that teaches the next step); otherwise `children` with the data.
 */
export function QueryState<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  /** What is loaded, in words: "pipelines". */
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={`Loading ${what}…`} />;
  if (query.isError || query.data === undefined) {
    return (
      <div className="space-y-3 p-6">
        <Alert title={`Could not load ${what}`}>{errorMessage(query.error)}</Alert>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (empty !== undefined && isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
