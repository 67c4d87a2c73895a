import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { betterAuth } from 'better-auth';
import { eq } from 'drizzle-orm';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { accounts, sessions, settings, users, verifications } from '@/server/db/schema';
import { withHashedSessionTokens } from './hashed-sessions';
import { signInHooks, type SignInAttempt, type SignInLimiters } from './sign-in-limits';
import { logger } from '@/server/logger';
import { openSecrets, sealSecrets, writeSecretOnce } from '@/server/secrets';
import { getOrCreateSetting, putSetting } from '@/server/db/settings';

/** Browser sign-in (email + password, cookie sessions) by better-auth, on our own database. */
/** What happens when a user signs up (an organization made or joined): the caller brings it, auth knows no services. */
export type OnSignUp = (
  db: Db,
  user: { id: string; name: string; email: string },
  tokens: { setup?: string | null; invite?: string | null },
) => Promise<unknown>;

/** What happens on a sign-in attempt, successful or refused (the audit trail records it). */
export type OnSignIn = (db: Db, attempt: SignInAttempt) => Promise<void>;

export function createAuth(db: Db, secret: string, limits: SignInLimiters, onSignUp: OnSignUp, onSignIn?: OnSignIn) {
  return betterAuth({
    appName: 'Clinflow',
    secret,
    // Behind a proxy or on another host set APP_URL; locally any port of localhost works.
    baseURL: env.APP_URL ?? {
      allowedHosts: ['localhost', 'localhost:*', '127.0.0.1', '127.0.0.1:*', '[::1]:*'],
      fallback: 'http://localhost:3000',
      protocol: 'http',
    },
    basePath: '/api/auth',
    // session tokens are stored hashed: a copy of the database holds no usable session
    database: withHashedSessionTokens(
      drizzleAdapter(db, {
        provider: 'pg',
        schema: { user: users, session: sessions, account: accounts, verification: verifications },
      }),
    ),
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8, maxPasswordLength: 128 },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    telemetry: { enabled: false },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/email': { window: 60, max: env.AUTH_ATTEMPTS_PER_MINUTE },
        '/sign-up/email': { window: 60, max: env.AUTH_ATTEMPTS_PER_MINUTE },
      },
    },
    // by address and by account, in the shared store: better-auth's own limits above are per process
    hooks: signInHooks(limits, onSignIn && ((attempt) => onSignIn(db, attempt))),
    databaseHooks: {
      user: {
        create: {
          after: async (user, context) => {
            const headers = context?.headers ?? context?.request?.headers;
            await onSignUp(db, user, { setup: headers?.get('x-setup-token'), invite: headers?.get('x-invite-token') });
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * The session-signing secret: AUTH_SECRET; embedded, a file beside the database (DATA_DIR/auth.secret, mode
 * 0600), so a copy of the database alone cannot mint a session cookie (an older install's secret is moved out of
 * the `settings` table into it); on Postgres without AUTH_SECRET, one generated into `settings`, shared by every
 * process, encrypted under CONNECTOR_KEY (AES-256-GCM, as connector credentials are) so that the database alone
 * cannot mint a session cookie.
 */
export async function authSecret(db: Db): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.DATABASE_URL) return sharedSecret(db);
  if (env.DATA_DIR.startsWith('memory://')) return randomBytes(32).toString('base64url');
  const file = path.resolve(env.DATA_DIR, 'auth.secret');
  if (!existsSync(file)) {
    const [stored] = await db.select().from(settings).where(eq(settings.key, 'auth_secret'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeSecretOnce(file, stored?.value ?? randomBytes(32).toString('base64url'));
  }
  // the secret lives in the file now: none is left in the database (sessions signed with it stay valid)
  await db.delete(settings).where(eq(settings.key, 'auth_secret'));
  return readFileSync(file, 'utf8').trim();
}

/**
 * Postgres without AUTH_SECRET: one secret for every process, stored in `settings` sealed under CONNECTOR_KEY (a
 * secret stored in clear by an older version is sealed on first read). Without CONNECTOR_KEY it stays in clear, and
 * the start-up log says to set either variable.
 */
async function sharedSecret(db: Db): Promise<string> {
  const stored = await getOrCreateSetting(db, 'auth_secret', () => seal(randomBytes(32).toString('base64url')));
  if (!stored.startsWith('{')) {
    const sealed = seal(stored);
    if (sealed !== stored) await putSetting(db, 'auth_secret', sealed);
    return stored;
  }
  return openSecrets('instance', 'auth_secret', stored).secret!;
}

function seal(secret: string): string {
  if (!env.CONNECTOR_KEY) {
    logger.warn('the session-signing secret is stored in clear in the database: set AUTH_SECRET, or CONNECTOR_KEY to encrypt it');
    return secret;
  }
  return sealSecrets('instance', 'auth_secret', { secret })!;
}
