'use client';

import { ArrowLeft, FileJson } from 'lucide-react';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';

// Swagger UI touches `window` while loading: browser only
const SwaggerView = dynamic(() => import('./swagger-view'), {
  ssr: false,
  loading: () => <Spinner label="Loading the API reference…" />,
});

/** /api/docs: the REST reference, readable without signing in. */
export function ApiReference() {
  return (
    <div className="min-h-screen bg-white">
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-4 sm:px-8">
          <div className="flex items-center gap-3">
            <Logo />
            <span className="hidden text-sm text-slate-400 sm:inline">/</span>
            <span className="hidden text-sm font-medium text-slate-600 sm:inline">API reference</span>
          </div>
          <nav aria-label="API reference" className="flex items-center gap-1 text-sm">
            <a
              href="/api/openapi.json"
              className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              <FileJson className="size-4" aria-hidden />
              openapi.json
            </a>
            <Link href="/pipelines" className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 font-medium text-teal-700 hover:bg-teal-50">
              <ArrowLeft className="size-4" aria-hidden />
              Back to the app
            </Link>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-2 pb-16 sm:px-6">
        <SwaggerView />
      </main>
    </div>
  );
}
