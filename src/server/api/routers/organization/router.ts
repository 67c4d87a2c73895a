import { z } from 'zod';
import { adminProcedure, readProcedure, router } from '@/server/api/trpc';
import { getOrgDataSettings, setOrgDataSettings } from '@/server/services/orgs/data-settings';
import { DataSettingsChange, DataSettingsView } from '../pipelines/pipeline.schema';

const TAGS = ['Organization'];

/** The organization's own settings over REST: its data defaults (what runs keep and for how long; issue 27). */
export const organizationRouter = router({
  dataSettings: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/organization/data-settings',
        tags: TAGS,
        summary: "The organization's data settings: the defaults of what its pipelines' runs keep and for how long",
        protect: true,
      },
    })
    .input(z.object({}))
    .output(DataSettingsView)
    .query(({ ctx }) => getOrgDataSettings(ctx)),
  setDataSettings: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/organization/data-settings',
        tags: TAGS,
        summary: 'Change the data settings defaults (admins): every pipeline without its own value uses them from its next run',
        protect: true,
      },
    })
    .input(DataSettingsChange)
    .output(DataSettingsView)
    .mutation(({ ctx, input }) => setOrgDataSettings(ctx, input)),
});
