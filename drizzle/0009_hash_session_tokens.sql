-- Session tokens are stored as their SHA-256 (hex) from now on (src/server/auth/hashed-sessions.ts): hash those
-- stored before, so sessions signed in before the upgrade keep working. A hashed token is 64 hex characters;
-- better-auth's raw tokens are 32.
UPDATE "sessions" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex') WHERE length("token") <> 64;
