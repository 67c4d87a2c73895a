import type { StoreApi } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { toDefinition, type Definition } from '../definition';
import type { CatalogEntry } from '../types';
import { chatSlice, type ChatSlice } from './chat';
import { copilotSlice, type CopilotSlice } from './copilot';
import { documentSlice, type DocumentSlice } from './document';
import { findingsSlice, type FindingsSlice } from './findings';
import { runSlice, type RunSlice } from './run';
import { viewSlice, type ViewSlice } from './view';

export type { SidePanel } from './view';

/**
 * The editor's store, in slices with one owner each: the document and its undo history, the view,
 * the validator's findings, and the run and step state the server reports. A slice writes only its own
 * fields; it asks another slice through that slice's actions.
 */
export type EditorState = DocumentSlice & ViewSlice & FindingsSlice & RunSlice & CopilotSlice & ChatSlice;

/** A slice: its fields and actions, made with the whole store's `set` and `get`. */
export type EditorSlice<T> = (set: StoreApi<EditorState>['setState'], get: StoreApi<EditorState>['getState']) => T;

export interface EditorInit {
  pipelineId: string;
  catalog: CatalogEntry[];
  definition: Definition;
  saved: Definition;
  baseVersion: number;
  runInputs: string;
}

export function createEditorStore(init: EditorInit) {
  return createStore<EditorState>()((set, get) => ({
    ...documentSlice(init)(set, get),
    ...viewSlice(set, get),
    ...findingsSlice(set, get),
    ...runSlice(init)(set, get),
    ...copilotSlice(set, get),
    ...chatSlice(set, get),
  }));
}

export type EditorStore = ReturnType<typeof createEditorStore>;

/** The definition on the canvas now. */
export function currentDefinition(s: Pick<EditorState, 'nodes' | 'edges' | 'notes'>): Definition {
  return toDefinition(s.nodes, s.edges, s.notes);
}
