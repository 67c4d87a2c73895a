import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env } from '@/env';
import { AppError } from '@/server/errors';

/**
 * Connector credentials at rest: AES-256-GCM under CONNECTOR_KEY, a fresh 12-byte IV per write, the connector's
 * organization and id bound in as additional data (a ciphertext moved to another row does not decrypt). Each
 * envelope names its key by a fingerprint, so keys rotate: set the new CONNECTOR_KEY, move the old one to
 * CONNECTOR_KEY_PREVIOUS, and every connector is re-encrypted under the new key when it is next saved (or by
 * `reencryptAll`). Embedded mode without CONNECTOR_KEY keeps a generated key in DATA_DIR/connector.key (mode
 * 0600), outside the database, so a copy of the database alone does not reveal a credential.
 */

interface Envelope {
  v: 1;
  /** fingerprint of the key: the first 8 bytes of its SHA-256, hex */
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

interface Key {
  id: string;
  bytes: Buffer;
}

const keyOf = (bytes: Buffer): Key => ({ id: createHash('sha256').update(bytes).digest('hex').slice(0, 16), bytes });

let ring: { current: Key; all: Map<string, Key> } | undefined;

/**
 * Writes `text` to `file` (mode 0600) unless it exists, whole or not at all: written beside it, then linked into place,
 * which fails if another process starting on the same DATA_DIR got there first — its secret is then the one read, and
 * no process ever reads a file still being written (an empty key or secret).
 */
export function writeSecretOnce(file: string, text: string): void {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(draft);
  }
}

/** The embedded database's own key, made once beside it (or for this process only, for an in-memory database). */
function embeddedKey(): Buffer {
  if (env.DATA_DIR.startsWith('memory://')) return randomBytes(32);
  const file = path.resolve(env.DATA_DIR, 'connector.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(path.dirname(file), { recursive: true });
  writeSecretOnce(file, randomBytes(32).toString('base64'));
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

function keys(): { current: Key; all: Map<string, Key> } {
  if (ring) return ring;
  let current: Buffer;
  if (env.CONNECTOR_KEY) current = Buffer.from(env.CONNECTOR_KEY, 'base64');
  else if (!env.DATABASE_URL) current = embeddedKey();
  else
    throw new AppError(
      'CONNECTOR_KEY_MISSING',
      'Connector credentials cannot be stored or read: set CONNECTOR_KEY (32 bytes in base64, e.g. openssl rand -base64 32) on every process.',
    );
  const all = new Map<string, Key>();
  for (const k of [current, ...env.CONNECTOR_KEY_PREVIOUS.map((v) => Buffer.from(v, 'base64'))].map(keyOf)) all.set(k.id, k);
  ring = { current: keyOf(current), all };
  return ring;
}

const aad = (orgId: string, connectorId: string) => Buffer.from(`clinflow:connector:${orgId}:${connectorId}`, 'utf8');

/** Encrypts a connector's credentials (null when there are none). */
export function sealSecrets(orgId: string, connectorId: string, secrets: Record<string, string>): string | null {
  if (Object.keys(secrets).length === 0) return null;
  const { current } = keys();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
  cipher.setAAD(aad(orgId, connectorId));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  const envelope: Envelope = { v: 1, kid: current.id, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  return JSON.stringify(envelope);
}

/** Decrypts what sealSecrets wrote; an envelope under a key this process does not have is a clear error. */
export function openSecrets(orgId: string, connectorId: string, sealed: string | null): Record<string, string> {
  if (!sealed) return {};
  const envelope = JSON.parse(sealed) as Envelope;
  const key = keys().all.get(envelope.kid);
  if (!key) {
    throw new AppError(
      'CONNECTOR_KEY_MISSING',
      "This connector's credentials were encrypted under a key this server does not have: set that key as CONNECTOR_KEY or in CONNECTOR_KEY_PREVIOUS.",
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(envelope.iv, 'base64'));
  decipher.setAAD(aad(orgId, connectorId));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Record<string, string>;
}

/** Whether an envelope was written under an older key (re-encrypt it). */
export function sealedUnderOldKey(sealed: string | null): boolean {
  return !!sealed && (JSON.parse(sealed) as Envelope).kid !== keys().current.id;
}

/** `••••1234` (the last 4 characters of a secret of 12 or more), else `••••`: enough to tell secrets apart. */
export function mask(secret: string): string {
  return secret.length >= 12 ? `••••${secret.slice(-4)}` : '••••';
}

export const isMasked = (v: unknown): boolean => typeof v === 'string' && v.startsWith('••••');
