import { router } from '@/server/api/trpc';
import { chatWith, send } from './chat';
import { conversation, conversations, endConversation, messages, startConversation } from './conversations';
import { create } from './create';
import { remove } from './delete';
import { deploy, undeploy } from './deploy';
import { get } from './get';
import { invoke } from './invoke';
import { list } from './list';
import { assign, tools, unassign } from './tools';
import { update } from './update';
import { snapshot, versions } from './versions';

/** Agents, their conversations, tools and versions (DESIGN.md §3 Agents; issue 9): one procedure per file. */
export const agentsRouter = router({
  list,
  create,
  get,
  update,
  remove,
  deploy,
  undeploy,
  chat: chatWith,
  invoke,
  conversations,
  startConversation,
  conversation,
  endConversation,
  messages,
  send,
  tools,
  assign,
  unassign,
  versions,
  snapshot,
});
