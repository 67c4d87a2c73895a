import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { betterAuth } from 'better-auth';
import { eq } from 'drizzle-orm';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { accounts, sessions, settings, users, verifications } from '@/server/db/schema';
import { getOrCreateSetting } from '@/server/services/orgs/instance-settings';
import { onSignUp } from '@/server/services/orgs/on-sign-up';

/** Browser sign-in (email + password, cookie sessions) by better-auth, on our own database. */
export function createAuth(db: Db, secret: string) {
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
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
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
 * process — set AUTH_SECRET there to keep it out of the database.
 */
export async function authSecret(db: Db): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.DATABASE_URL) return getOrCreateSetting(db, 'auth_secret', () => randomBytes(32).toString('base64url'));
  if (env.DATA_DIR.startsWith('memory://')) return randomBytes(32).toString('base64url');
  const file = path.resolve(env.DATA_DIR, 'auth.secret');
  if (!existsSync(file)) {
    const [stored] = await db.select().from(settings).where(eq(settings.key, 'auth_secret'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, stored?.value ?? randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  // the secret lives in the file now: none is left in the database (sessions signed with it stay valid)
  await db.delete(settings).where(eq(settings.key, 'auth_secret'));
  return readFileSync(file, 'utf8').trim();
}
