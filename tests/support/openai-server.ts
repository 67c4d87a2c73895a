import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat completions request as the server received it. */
export interface SeenRequest {
  authorization?: string;
  body: {
    model: string;
    stream?: boolean;
    messages: Array<{ role: string; content?: unknown; tool_calls?: unknown }>;
    tools?: Array<{ function: { name: string } }>;
    response_format?: { type: string; json_schema?: { name?: string; strict?: boolean; schema: Record<string, unknown> } };
  };
}

/** How the server answers a request for structured output (response_format json_schema): the message content to send. */
export type StructuredAnswer = (body: SeenRequest['body'], nth: number) => string;

/**
 * A small OpenAI-compatible chat completions server on loopback (what Ollama or vLLM speak): it calls the first
 * offered tool with `{"patient_id":"12345"}` when the last message is the user's, and answers in words once a tool
 * result came back (or when no tool is offered). Streams chunks as server-sent events when asked. A request for
 * structured output is answered by `structured` (the test plays the model's part: what it would write).
 */
export async function startOpenAiServer(structured?: StructuredAnswer): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  let structuredCalls = 0;
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req)) as SeenRequest['body'];
    seen.push({ authorization: req.headers.authorization, body });
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    if (body.response_format?.type === 'json_schema' && structured && !body.stream) {
      const content = structured(body, ++structuredCalls);
      const message = { role: 'assistant', content };
      const completion = {
        id: `chatcmpl-s${structuredCalls}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
      return;
    }
    const last = body.messages.at(-1)!;
    const tool = last.role === 'user' ? body.tools?.[0]?.function.name : undefined;
    const text = last.role === 'tool' ? `The result is ${String(last.content)}.` : 'Hello from the local model.';
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model };
    const usage = { prompt_tokens: 12, completion_tokens: tool ? 5 : text.split(' ').length, total_tokens: 0 };
    if (!body.stream) {
      const message = tool
        ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool, arguments: '{"patient_id":"12345"}' } }] }
        : { role: 'assistant', content: text };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: tool ? 'tool_calls' : 'stop' }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (tool) {
      send({
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: tool, arguments: '' } }] },
            finish_reason: null,
          },
        ],
      });
      for (const part of ['{"patient_', 'id":"12345"}'])
        send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: part } }] }, finish_reason: null }] });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    } else {
      for (const word of text.match(/\S+\s*/g)!) send({ ...base, choices: [{ index: 0, delta: { content: word }, finish_reason: null }] });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    }
    send({ ...base, choices: [], usage });
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function read(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
