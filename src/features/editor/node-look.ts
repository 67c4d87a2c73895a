import { Braces, GitBranch, HeartPulse, type LucideIcon, Play, Receipt, Send, Sparkles } from 'lucide-react';
import type { PortType } from '@/shared/ports';
import type { Category, NodeRunStatus } from './types';

interface CategoryLook {
  label: string;
  icon: LucideIcon;
  /** Icon tile background + text. */
  tile: string;
  /** Accent bar colour on the node. */
  accent: string;
}

export const CATEGORY_LOOK: Record<Category, CategoryLook> = {
  control: { label: 'Control', icon: GitBranch, tile: 'bg-amber-100 text-amber-700', accent: 'bg-amber-400' },
  healthcare: { label: 'Healthcare', icon: HeartPulse, tile: 'bg-rose-100 text-rose-700', accent: 'bg-rose-400' },
  data: { label: 'Data', icon: Braces, tile: 'bg-sky-100 text-sky-700', accent: 'bg-sky-400' },
  ai: { label: 'AI', icon: Sparkles, tile: 'bg-violet-100 text-violet-700', accent: 'bg-violet-400' },
  claims: { label: 'Claims', icon: Receipt, tile: 'bg-indigo-100 text-indigo-700', accent: 'bg-indigo-400' },
  output: { label: 'Output', icon: Send, tile: 'bg-emerald-100 text-emerald-700', accent: 'bg-emerald-500' },
};

export const CATEGORY_ORDER: Category[] = ['control', 'healthcare', 'data', 'ai', 'claims', 'output'];

export function lookOf(category: Category | undefined, trigger?: boolean): CategoryLook {
  const look = CATEGORY_LOOK[category ?? 'data'] ?? CATEGORY_LOOK.data;
  return trigger ? { ...look, icon: Play } : look;
}

/** Handle colours per port type, so what fits is visible before dragging. */
export const PORT_COLOR: Record<PortType, string> = {
  'trigger-event': '#f59e0b',
  text: '#64748b',
  json: '#0ea5e9',
  'hl7v2-message': '#e11d48',
  'fhir-resource': '#db2777',
  'fhir-bundle': '#9333ea',
  'x12-interchange': '#4f46e5',
  'error-event': '#dc2626',
  any: '#94a3b8',
};

export const STATUS_LOOK: Record<NodeRunStatus, { label: string; ring: string; pill: string }> = {
  pending: { label: 'Pending', ring: 'ring-slate-300', pill: 'bg-slate-100 text-slate-600' },
  waiting: { label: 'Waiting', ring: 'ring-sky-400 ring-offset-2', pill: 'bg-sky-100 text-sky-700' },
  running: { label: 'Running', ring: 'ring-blue-500 animate-pulse', pill: 'bg-blue-100 text-blue-700' },
  completed: { label: 'Completed', ring: 'ring-emerald-500', pill: 'bg-emerald-100 text-emerald-700' },
  failed: { label: 'Failed', ring: 'ring-red-500', pill: 'bg-red-100 text-red-700' },
  skipped: { label: 'Skipped', ring: 'ring-slate-300 opacity-70', pill: 'bg-slate-100 text-slate-500' },
  simulated: { label: 'Simulated', ring: 'ring-violet-500', pill: 'bg-violet-100 text-violet-700' },
};
