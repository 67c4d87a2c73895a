'use client';

import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  /** Why the last attempt failed, shown inside the dialog. */
  error?: string | null;
  danger?: boolean;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, onClose, onConfirm, title, description, children, confirmLabel, pending, error, danger } = props;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children || error ? (
        <div className="space-y-3">
          {children}
          {error ? <Alert>{error}</Alert> : null}
        </div>
      ) : null}
    </Dialog>
  );
}
