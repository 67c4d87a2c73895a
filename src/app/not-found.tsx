import Link from 'next/link';
import { Logo } from '@/components/ui/logo';

/** Any address the app does not have (pages only: unknown /api paths answer JSON). */
export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 px-6 text-center">
      <Logo />
      <div className="space-y-2">
        <p className="text-sm font-semibold tracking-wider text-teal-700 uppercase">404</p>
        <h1 className="text-2xl font-semibold text-slate-900">This page does not exist</h1>
        <p className="max-w-md text-sm text-slate-600">The address may be mistyped, or what it pointed to was deleted.</p>
      </div>
      <div className="flex gap-3 text-sm font-medium">
        <Link href="/pipelines" className="rounded-md bg-teal-700 px-4 py-2 text-white hover:bg-teal-800">
          Go to pipelines
        </Link>
        <Link href="/executions" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-slate-700 hover:bg-slate-100">
          Executions
        </Link>
      </div>
    </main>
  );
}
