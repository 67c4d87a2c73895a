// Re-encrypts every connector's credentials under the current CONNECTOR_KEY, after a key rotation (README,
// "Rotating the connector key"). Run with the same environment as the server, the old key in
// CONNECTOR_KEY_PREVIOUS: `npx tsx scripts/reencrypt-connectors.ts` (embedded: stop the server first).
import { getDatabase } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';
import { reencryptAll } from '../src/server/services/connectors/connectors';

const database = await getDatabase();
await migrateDatabase(database);
const { reencrypted, unreadable } = await reencryptAll({ db: database.db });
console.log(`${reencrypted} connector${reencrypted === 1 ? '' : 's'} re-encrypted under the current CONNECTOR_KEY`);
if (unreadable) {
  console.log(
    `${unreadable} connector${unreadable === 1 ? ' is' : 's are'} under a key this environment does not have: add it to CONNECTOR_KEY_PREVIOUS and run again`,
  );
  process.exitCode = 1;
}
await database.close();
