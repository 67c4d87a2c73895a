'use client';

import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { TextAreaField, TextField } from '@/components/ui/field';
import { errorMessage } from '@/trpc/errors';
import { api } from '@/trpc/react';
import { ModelSelect } from './model-select';
import type { Agent } from './types';

type Draft = { name: string; description: string; model: string; instructions: string; prompt_template: string; temperature: string; max_tokens: string };

function draftOf(a: Agent): Draft {
  return {
    name: a.name,
    description: a.description,
    model: a.model_config.model,
    instructions: a.instructions,
    prompt_template: a.prompt_template,
    temperature: String(a.model_config.temperature),
    max_tokens: String(a.model_config.max_tokens),
  };
}

/** The agent's configuration: name, model and its settings, instructions and prompt template; Save keeps it. */
export function SettingsPanel({ agent }: { agent: Agent }) {
  const utils = api.useUtils();
  const [draft, setDraft] = useState<Draft>(() => draftOf(agent));
  const [problem, setProblem] = useState<string | null>(null);
  const update = api.agents.update.useMutation({
    onSuccess: (a) => {
      utils.agents.get.setData({ id: a.id }, a);
      void utils.agents.list.invalidate();
      setDraft(draftOf(a));
      toast.success('Agent saved');
    },
  });
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(agent));
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });

  function submit(e: FormEvent) {
    e.preventDefault();
    const temperature = Number(draft.temperature);
    const max_tokens = Number(draft.max_tokens);
    if (!draft.name.trim()) return setProblem('Give the agent a name.');
    if (draft.temperature.trim() === '' || !(temperature >= 0 && temperature <= 2)) return setProblem('Temperature is a number from 0 to 2.');
    if (!Number.isInteger(max_tokens) || max_tokens < 1 || max_tokens > 200_000) return setProblem('Max tokens is a whole number from 1 to 200000.');
    setProblem(null);
    update.mutate({
      id: agent.id,
      name: draft.name.trim(),
      description: draft.description,
      instructions: draft.instructions,
      prompt_template: draft.prompt_template,
      model_config: { model: draft.model, temperature, max_tokens },
    });
  }

  return (
    <Card>
      <form onSubmit={submit} className="space-y-4 p-5" aria-label="Agent settings">
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">Configuration</h2>
          {dirty ? <span className="text-xs text-amber-700">Unsaved changes</span> : null}
        </div>
        <TextField label="Name" value={draft.name} onChange={set('name')} maxLength={200} />
        <TextAreaField label="Description" value={draft.description} onChange={set('description')} rows={3} maxLength={5000} />
        <ModelSelect value={draft.model} onChange={(model) => setDraft({ ...draft, model })} />
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Temperature"
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={draft.temperature}
            onChange={set('temperature')}
            hint="0 (focused) to 2 (varied)"
          />
          <TextField
            label="Max tokens"
            type="number"
            min={1}
            max={200000}
            step={1}
            value={draft.max_tokens}
            onChange={set('max_tokens')}
            hint="Longest answer"
          />
        </div>
        <TextAreaField
          label="Instructions"
          value={draft.instructions}
          onChange={set('instructions')}
          rows={5}
          hint="What the model is told before the conversation (system prompt)."
        />
        <TextAreaField
          label="Prompt template"
          value={draft.prompt_template}
          onChange={set('prompt_template')}
          rows={3}
          className="font-mono text-xs"
          hint={
            <>
              The message as the model gets it: <code>{'{{input}}'}</code> is what was sent; <code>{'{{field}}'}</code> is a field of an invocation&apos;s
              input_data.
            </>
          }
        />
        {problem ? <Alert>{problem}</Alert> : update.error ? <Alert title="Could not save">{errorMessage(update.error)}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" disabled={!dirty || update.isPending} onClick={() => setDraft(draftOf(agent))}>
            Discard
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!dirty}>
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}
