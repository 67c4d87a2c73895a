import type { CopilotReport } from '@/shared/copilot-events';
import type { Definition } from '../definition';
import type { ChangeAbout } from './copilot';
import type { EditorSlice } from './index';

/** What the copilot did in a turn, in the order it streamed it. */
export type ChatStep =
  { kind: 'thinking'; content: string } | { kind: 'validation'; report: CopilotReport } | { kind: 'dry_run'; status: string; error: string | null };

/** One request to the copilot panel and its answer, as it streams in. */
export interface ChatTurn {
  id: number;
  /** What the user asked (or the Fix that asked for it). */
  request: string;
  steps: ChatStep[];
  message: string | null;
  error: string | null;
  pending: boolean;
  /** What became of a pipeline it carried: previewed on the canvas, or the same as the canvas. */
  outcome: 'previewed' | 'unchanged' | null;
  /** A change it proposed to the canvas, kept to preview again, and the canvas it was made for (changeKey). */
  proposal?: { definition: Definition; about: ChangeAbout; canvas: string; base: Definition };
}

/** The copilot panel beside the canvas: open or not, and the conversation, kept while the editor is open. */
export interface ChatSlice {
  chatOpen: boolean;
  chat: ChatTurn[];
  setChatOpen(open: boolean): void;
  /** A new turn, pending; its id. */
  startTurn(request: string): number;
  updateTurn(id: number, update: (turn: ChatTurn) => Partial<ChatTurn>): void;
  clearChat(): void;
  /** The language model new designs are made with; null: the server's default (COPILOT_MODEL). */
  copilotModel: string | null;
  setCopilotModel(model: string | null): void;
}

export const chatSlice: EditorSlice<ChatSlice> = (set, get) => ({
  chatOpen: false,
  chat: [],
  setChatOpen(chatOpen) {
    set({ chatOpen });
  },
  startTurn(request) {
    const id = (get().chat.at(-1)?.id ?? 0) + 1;
    set({ chat: [...get().chat, { id, request, steps: [], message: null, error: null, pending: true, outcome: null }] });
    return id;
  },
  updateTurn(id, update) {
    set({ chat: get().chat.map((t) => (t.id === id ? { ...t, ...update(t) } : t)) });
  },
  clearChat() {
    set({ chat: get().chat.filter((t) => t.pending) });
  },
  copilotModel: null,
  setCopilotModel(copilotModel) {
    set({ copilotModel });
  },
});
