import net from 'node:net';
import type { MllpListenOptions, TriggerHost, TriggerTarget } from '@/engine/node-type';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import type { Queue } from '@/server/queue/queue';
import { mllpFrame } from '@/clinical/hl7v2/mllp';
import { FrameTooLarge, MllpDeframer } from './frames';
import { MllpReceiver } from './receive';

/** The largest message a sender may send (a big ORU with embedded PDFs stays well below). */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** Messages of one connection taken in before their ACKs went out; past it the connection is not read. */
const MAX_IN_FLIGHT = 64;

interface Listener {
  server: net.Server;
  options: MllpListenOptions;
  allowed: net.BlockList | null;
  /** Open connections, each with the promise of its last ACK written (or given up). */
  sockets: Map<net.Socket, Promise<void>>;
}

/** How long a listener being replaced (a redeploy on another port) lets its connections finish their ACKs. */
const RETIRE_GRACE_MS = 30_000;

function blockListOf(senders: string[]): net.BlockList | null {
  if (!senders.length) return null;
  const list = new net.BlockList();
  for (const s of senders) {
    const [address, prefix] = s.split('/') as [string, string | undefined];
    const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function allows(list: net.BlockList | null, address: string | undefined): boolean {
  if (!list) return true;
  if (!address) return false;
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return v4 ? list.check(v4, 'ipv4') || list.check(address, 'ipv6') : list.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
}

function listenError(e: NodeJS.ErrnoException, port: number): AppError {
  if (e.code === 'EADDRINUSE') return new AppError('PORT_IN_USE', `Port ${port} is already in use on this server: choose another port for the MLLP listener.`);
  if (e.code === 'EACCES')
    return new AppError('LISTENER_FAILED', `This server may not listen on port ${port} (ports below 1024 need privileges): choose a port above 1024.`);
  return new AppError('LISTENER_FAILED', `The MLLP listener could not open port ${port}: ${e.message}`);
}

/**
 * The MLLP ports of deployed pipelines in this process: one TCP server per pipeline, opened on deploy
 * and closed on undeploy (the `listen`/`unlisten` of the TriggerHost). A sender that sends the next message
 * before the ACK of the last (pipelining) has them stored in the order sent and gets the ACKs in that order;
 * one that waits for each ACK, as most do, sees the same. A connection's runs never overlap: with ack_mode stored
 * each starts once the run of the message before it ended (MessageStore holds it until then), with completed a
 * connection's messages are taken in one at a time, each once the run of the one before ended.
 */
export class MllpListeners implements Pick<TriggerHost, 'listen' | 'unlisten'> {
  private readonly listeners = new Map<string, Listener>();
  private readonly receiver: MllpReceiver;
  /** Connections accepted so far (each one's key for the order of its runs). */
  private connections = 0;

  constructor(db: Db, queue: Queue) {
    this.receiver = new MllpReceiver(db, queue);
  }

  async listen(target: TriggerTarget, options: MllpListenOptions): Promise<void> {
    const current = this.listeners.get(target.pipelineId);
    if (current?.options.port === options.port) {
      // same port: new settings apply to the next message, connections stay open
      current.options = options;
      current.allowed = blockListOf(options.allowed_senders);
      return;
    }
    const listener: Listener = { server: net.createServer(), options, allowed: blockListOf(options.allowed_senders), sockets: new Map() };
    listener.server.on('connection', (socket) => this.accept(target, listener, socket));
    await new Promise<void>((resolve, reject) => {
      listener.server.once('error', (e) => reject(listenError(e, options.port)));
      listener.server.listen({ port: options.port }, () => resolve());
    });
    listener.server.on('error', (e) => logger.error('MLLP listener error', { pipelineId: target.pipelineId, error: String(e) }));
    // a new port (a redeploy): the old one closes only once the new one is open, so a port in use leaves the old
    // one working; messages it has taken in get their ACKs before its connections end
    this.listeners.set(target.pipelineId, listener);
    if (current) await retire(current, target.pipelineId);
    logger.info(`MLLP listener of pipeline ${target.pipelineId} on port ${options.port} (${options.ack_mode})`);
  }

  async unlisten(target: TriggerTarget): Promise<void> {
    const listener = this.listeners.get(target.pipelineId);
    if (!listener) return;
    this.listeners.delete(target.pipelineId);
    this.receiver.forget(target.pipelineId);
    await new Promise<void>((resolve) => {
      listener.server.close(() => resolve());
      // connections kept open by senders would hold the port: end them (the one in flight gets no ACK and is resent)
      for (const socket of listener.sockets.keys()) socket.destroy();
    });
    logger.info(`MLLP listener of pipeline ${target.pipelineId} on port ${listener.options.port} closed`);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.listeners.keys()].map((pipelineId) => this.unlisten({ pipelineId, orgId: '' })));
  }

  private accept(target: TriggerTarget, listener: Listener, socket: net.Socket): void {
    const remote = socket.remoteAddress ?? '';
    if (!allows(listener.allowed, remote)) {
      logger.warn(`MLLP connection from ${remote} refused: not in allowed_senders of pipeline ${target.pipelineId}`);
      socket.destroy();
      return;
    }
    listener.sockets.set(socket, Promise.resolve());
    socket.setKeepAlive(true, 60_000);
    // the runs of a connection's messages start in the order received, after those of its sender's connection before
    const connection = String(++this.connections);
    const sender = `${target.pipelineId} ${remote}`;
    this.receiver.opened(connection, sender);
    const deframer = new MllpDeframer(MAX_MESSAGE_BYTES);
    // ACKs go out in the order the messages came; each message is handed to the receiver as it arrives
    let chain = Promise.resolve();
    let inFlight = 0;
    socket.on('data', (chunk) => {
      let frames: Buffer[];
      try {
        frames = deframer.push(chunk);
      } catch (e) {
        if (e instanceof FrameTooLarge) logger.warn(`MLLP connection from ${remote} closed: ${e.message}`);
        socket.destroy();
        return;
      }
      for (const frame of frames) {
        const { encoding } = listener.options;
        const stored = listener.options.ack_mode === 'stored';
        // stored: the run starts after the run of the message before (completed: that one ended before this is taken in)
        const received = {
          text: frame.toString(encoding),
          remoteAddress: remote,
          receivedAt: new Date().toISOString(),
          connection: stored ? connection : undefined,
        };
        // completed: the next message is taken in once the previous one's run ended (its ACK written), so that the runs
        // of a connection never overlap, even for a sender that does not wait for each ACK
        const answer = stored
          ? this.receiver.receive(target, listener.options, received)
          : chain.then(() => this.receiver.receive(target, listener.options, received));
        answer.catch(() => undefined); // handled in turn below; not an unhandled rejection meanwhile
        if (++inFlight >= MAX_IN_FLIGHT) socket.pause();
        chain = chain
          .then(() => answer)
          .then((text) => {
            if (!socket.destroyed) socket.write(mllpFrame(text, encoding));
            if (--inFlight < MAX_IN_FLIGHT && socket.isPaused()) socket.resume();
          })
          .catch((e: unknown) => {
            logger.error('MLLP message not answered', { pipelineId: target.pipelineId, error: String(e) });
            socket.destroy();
          });
        if (listener.sockets.has(socket)) listener.sockets.set(socket, chain);
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      listener.sockets.delete(socket);
      this.receiver.closed(connection);
    });
  }
}

/**
 * Closes a listener replaced by one on another port without losing what is in flight: it takes no new connection
 * and reads no new message; each connection ends once the ACKs of the messages it has taken in are written (at most
 * RETIRE_GRACE_MS, then it is cut, and a message still without its ACK is resent by its sender, as MLLP expects).
 */
async function retire(listener: Listener, pipelineId: string): Promise<void> {
  const closed = new Promise<void>((resolve) => listener.server.close(() => resolve()));
  await Promise.all(
    [...listener.sockets].map(async ([socket, answered]) => {
      socket.pause();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, RETIRE_GRACE_MS)))]);
      clearTimeout(timer);
      socket.destroySoon(); // after the ACKs written so far have gone out
    }),
  );
  await closed;
  logger.info(`MLLP listener of pipeline ${pipelineId} on port ${listener.options.port} closed (replaced)`);
}
