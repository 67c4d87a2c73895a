'use client';

import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { RunDataForm } from './run-data-form';

/** /settings/run-data: the organization's defaults of what runs keep and for how long (admins change them). */
export function RunDataPage() {
  const me = api.account.me.useQuery();
  const settings = api.organization.dataSettings.useQuery({});
  const utils = api.useUtils();
  const save = api.organization.setDataSettings.useMutation({
    onSuccess: (data) => {
      utils.organization.dataSettings.setData({}, data);
      toast.success('Run data defaults saved: pipelines without their own settings use them from their next run');
    },
  });
  const admin = me.data?.scopes?.includes('admin') ?? false;
  return (
    <>
      <PageHeader
        title="Run data"
        description={
          "What the production runs of this organization's pipelines keep, and for how long. " +
          'A pipeline may set its own values in the editor (Settings tab); these are the defaults for the rest.'
        }
      />
      <Card className="max-w-2xl p-5">
        <QueryState query={settings} what="the run data settings">
          {(view) => (
            <div className="space-y-4">
              {!admin && me.data ? <Alert tone="info">Only an admin can change these defaults.</Alert> : null}
              <RunDataForm
                key={JSON.stringify(view.overrides)}
                view={view}
                scope="organization"
                saving={save.isPending}
                error={save.error ? errorMessage(save.error) : null}
                onSave={(change) => save.mutate(change)}
              />
            </div>
          )}
        </QueryState>
      </Card>
    </>
  );
}
