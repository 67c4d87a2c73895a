// Re-encrypts every connector's credentials under the current CONNECTOR_KEY, after a key rotation (README,
// "Rotating the connector key"). Run with the same environment as the server, the old key in
// CONNECTOR_KEY_PREVIOUS: `npx tsx scripts/reencrypt-connectors.ts` (embedded: stop the server first).
import { getDatabase } from '../src/server/db/client';
import { migrateDatabase } from '../src/server/db/migrate';
import { reencryptAll } from '../src/server/services/connectors/connectors';

const database = await getDatabase();
await migrateDatabase(database);
const n = await reencryptAll({ db: database.db });
console.log(`${n} connector${n === 1 ? '' : 's'} re-encrypted under the current CONNECTOR_KEY`);
await database.close();
