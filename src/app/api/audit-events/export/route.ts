import { handleAuditExport } from '@/server/api/rest/audit-export';

export const dynamic = 'force-dynamic';

export const GET = handleAuditExport;
export const POST = handleAuditExport;
