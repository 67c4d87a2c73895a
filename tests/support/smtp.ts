import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface LocalSmtp {
  port: number;
  /** Every mail the server accepted, parsed, in arrival order. */
  mails: (ParsedMail & { envelopeTo: string[]; user?: string })[];
  /** Resolves once `n` mails have arrived (or rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), with AUTH when `auth` is given (plain text allowed: tests run no
 * TLS), keeping what it receives parsed by mailparser: what a mailbox would show.
 */
export async function startSmtp(auth?: { user: string; pass: string }): Promise<LocalSmtp> {
  const mails: LocalSmtp['mails'] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(a, _session, callback) {
      if (auth && a.username === auth.user && a.password === auth.pass) callback(null, { user: a.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address), user: session.user as string | undefined }));
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch((e: Error) => callback(e));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    async waitFor(n, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
