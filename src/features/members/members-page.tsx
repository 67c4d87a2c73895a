'use client';

import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyField } from '@/components/ui/copy-field';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { RelativeTime } from '@/components/ui/relative-time';
import { errorMessage } from '@/trpc/errors';
import { api, type RouterOutputs } from '@/trpc/react';

type Member = RouterOutputs['members']['list']['members'][number];
type Role = Member['role'];

const ROLES: { value: Role; label: string; what: string }[] = [
  { value: 'admin', label: 'Admin', what: 'everything, including API keys and members' },
  { value: 'member', label: 'Member', what: 'build, deploy and run pipelines' },
  { value: 'viewer', label: 'Viewer', what: 'read pipelines and runs' },
];

const SELECT = 'h-9 rounded-md border border-slate-300 bg-white pr-8 pl-3 text-sm shadow-sm disabled:bg-slate-50 disabled:text-slate-500';

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const invite = api.members.invite.useMutation();
  const [role, setRole] = useState<Role>('member');
  const link = invite.data ? `${window.location.origin}${invite.data.path}` : null;
  const close = () => {
    invite.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Invite a member"
      description={
        'They sign up (or sign in, if they have an account) with the link and join this organization with the role you choose, ' +
        'keeping any other. The link works only for that email, for 7 days.'
      }
      footer={
        link ? (
          <Button onClick={close}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" form="invite-form" loading={invite.isPending}>
              Create invitation link
            </Button>
          </>
        )
      }
    >
      {link ? (
        <div className="space-y-3">
          <CopyField label={`Invitation link for ${invite.data!.email}`} value={link} />
          <p className="text-xs text-slate-500">
            {invite.data!.existing_account
              ? `${invite.data!.email} already has a Clinflow account: they sign in with the link and switch to this organization from the navigation. `
              : ''}
            Send it to them yourself: Clinflow sends no email. It expires {new Date(invite.data!.expires_at).toLocaleDateString()}.
          </p>
        </div>
      ) : (
        <form
          id="invite-form"
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            const email = String(new FormData(e.currentTarget).get('email') ?? '').trim();
            invite.mutate({ email, role });
          }}
        >
          <TextField label="Email" name="email" type="email" required autoFocus placeholder="name@hospital.org" />
          <label className="block space-y-1.5">
            <span className="block text-sm font-medium text-slate-700">Role</span>
            <select aria-label="Role" className={`${SELECT} w-full`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}: {r.what}
                </option>
              ))}
            </select>
          </label>
          {invite.error ? <Alert>{errorMessage(invite.error)}</Alert> : null}
        </form>
      )}
    </Dialog>
  );
}

/** /settings/members: who is in the organization, with which role; admins invite, change roles and remove. */
export function MembersPage() {
  const me = api.account.me.useQuery();
  const list = api.members.list.useQuery();
  const utils = api.useUtils();
  const setRole = api.members.setRole.useMutation({
    onSuccess: (data) => utils.members.list.setData(undefined, data),
    onError: (e) => toast.error(errorMessage(e)),
  });
  const remove = api.members.remove.useMutation({ onSuccess: (data) => utils.members.list.setData(undefined, data) });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const admin = list.data?.members.find((m) => m.you)?.role === 'admin' || me.data?.scopes?.includes('admin');

  return (
    <>
      <PageHeader
        title="Members"
        description={
          `The people of ${me.data?.organization.name ?? 'your organization'} and what each may do. ` +
          'Admins invite new members with a link, change roles and remove members.'
        }
        actions={
          admin ? (
            <Button icon={<UserPlus className="size-4" aria-hidden />} onClick={() => setInviting(true)}>
              Invite member
            </Button>
          ) : undefined
        }
      />
      <Card>
        <QueryState query={list} what="the members">
          {(data) => (
            <table className="w-full text-sm">
              <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
                <tr>
                  <th className="px-4 py-2 font-medium">Name</th>
                  <th className="px-4 py-2 font-medium">Role</th>
                  <th className="px-4 py-2 font-medium">Joined</th>
                  <th className="px-4 py-2" />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.members.map((m) => (
                  <tr key={m.user_id} data-testid={`member-${m.email}`}>
                    <td className="px-4 py-3">
                      <span className="font-medium text-slate-900">{m.name}</span> {m.you ? <Badge tone="teal">you</Badge> : null}
                      <span className="block text-xs text-slate-500">{m.email}</span>
                    </td>
                    <td className="px-4 py-3">
                      <select
                        aria-label={`Role of ${m.email}`}
                        className={SELECT}
                        value={m.role}
                        disabled={!admin || setRole.isPending}
                        onChange={(e) => setRole.mutate({ user_id: m.user_id, role: e.target.value as Role })}
                      >
                        {ROLES.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="px-4 py-3 text-slate-600">
                      <RelativeTime iso={m.joined_at} />
                    </td>
                    <td className="px-4 py-3 text-right">
                      {admin ? (
                        <Button variant="quiet-danger" onClick={() => setRemoving(m)}>
                          Remove
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </QueryState>
      </Card>
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <ConfirmDialog
        open={removing !== null}
        onClose={() => {
          remove.reset();
          setRemoving(null);
        }}
        onConfirm={() => removing && remove.mutate({ user_id: removing.user_id }, { onSuccess: () => setRemoving(null) })}
        title={`Remove ${removing?.name ?? ''}?`}
        description={`${removing?.email ?? ''} loses access to this organization's pipelines, runs and keys at once.`}
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        danger
      />
    </>
  );
}
