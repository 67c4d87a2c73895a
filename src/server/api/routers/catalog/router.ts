import { router } from '@/server/api/trpc';
import { get } from './get';
import { hl7Tables } from './hl7-tables';
import { list } from './list';
import { search } from './search';

// static paths (list, search) before {nodeId}; hl7Tables is tRPC only (the HL7 view's table meanings)
export const catalogRouter = router({ list, search, hl7Tables, get });
