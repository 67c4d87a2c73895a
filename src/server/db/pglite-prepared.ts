import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import { PreparedTexts } from './prepared-texts';

type Message = Parameters<typeof parse.parseResults>[0][number];
type Results = ReturnType<typeof parse.parseResults>[number];
type Options = { rowMode?: 'array' | 'object'; serializers?: Record<number, (value: unknown) => string> } | undefined;
export type Query = (text: string, params?: unknown[], options?: Options) => Promise<Results>;

/** What this uses of a PGlite instance beyond its typed API: what its own `query` does, in the same order. */
interface Internals {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(message: Uint8Array, options: { syncToFs: boolean }): Promise<Message[]>;
  syncToFs(): Promise<void>;
  serializers: Record<number, ((value: unknown) => string) | undefined>;
  parsers: Parameters<typeof parse.parseResults>[1];
}

/**
 * A prepared statement out of step with this: gone (26000), there already though not known here (42P05: its first
 * preparing failed half-way), or with a plan that no longer fits its tables.
 */
const STALE = (e: unknown) => {
  const err = e as { code?: string; message?: string } | null;
  return err?.code === '26000' || err?.code === '42P05' || /cached plan must not change result type/.test(err?.message ?? '');
};

/**
 * PGlite's `query` with the statements that come again and again sent as named prepared statements. PGlite has no
 * API for them: its `query` parses and plans every statement anew (the result's write of an execution: ~300 of its
 * ~800 µs). Here a text with parameters seen three times (the rule of `PreparedTexts`, as on Postgres) is parsed
 * once under a name, and later calls only bind and execute it — through PGlite's wire protocol, under its own locks
 * and with its own result parsing, as its `query` does. Only for statements outside a transaction (`query` of the
 * instance; a transaction's statements go as they are). A statement Postgres no longer has, or whose plan no longer
 * fits its tables, is sent as it is, and prepared again when seen again.
 */
export function preparing(client: PGlite, plain: Query): Query {
  // PGlite's protocol methods used here are public at run time but not in its type declarations
  const pg = client as unknown as Internals;
  const texts = new PreparedTexts('clinflow');
  /** The parameter types of each statement prepared, by name. */
  const prepared = new Map<string, number[]>();
  const send = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });

  const run = (name: string, text: string, params: unknown[], options: Options) =>
    pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        const messages: Message[] = [];
        try {
          let types = prepared.get(name);
          if (!types) {
            messages.push(...(await send(protocol.serialize.parse({ name, text }))));
            types = parse.parseDescribeStatementResults(await send(protocol.serialize.describe({ type: 'S', name })));
            prepared.set(name, types);
          }
          const values = params.map((value, i) => {
            if (value === null || value === undefined) return null;
            const serialize = options?.serializers?.[types[i]!] ?? pg.serializers[types[i]!];
            return serialize ? serialize(value) : String(value);
          });
          messages.push(...(await send(protocol.serialize.bind({ statement: name, values }))));
          messages.push(...(await send(protocol.serialize.describe({ type: 'P' }))));
          messages.push(...(await send(protocol.serialize.execute({}))));
        } catch (e) {
          throw Object.assign(e as object, { query: text, params });
        } finally {
          messages.push(...(await send(protocol.serialize.sync())));
        }
        await pg.syncToFs();
        return parse.parseResults(messages, pg.parsers, options)[0]!;
      }),
    );

  return async (text, params, options) => {
    const name = params?.length ? texts.nameOf(text) : undefined;
    if (!name) return plain(text, params, options);
    await pg._checkReady();
    try {
      return await run(name, text, params!, options);
    } catch (e) {
      if (!STALE(e)) throw e;
      prepared.delete(name);
      await pg
        ._runExclusiveTransaction(() =>
          pg._runExclusiveQuery(() => send(protocol.serialize.close({ type: 'S', name })).then(() => send(protocol.serialize.sync()))),
        )
        .catch(() => undefined);
      return plain(text, params, options);
    }
  };
}
