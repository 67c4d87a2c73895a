/** Cell classes shared by the app's data tables (pipelines, API keys, executions). */
export const TH = 'px-4 py-2.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase';
export const TD = 'px-4 py-3 text-sm text-slate-600';
