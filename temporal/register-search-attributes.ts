// One-shot entry: `node dist/temporal/register-search-attributes.js` registers Tollgate's search
// attributes in TEMPORAL_NAMESPACE (docker-compose runs it before the API and the worker start).
// Registering attributes that exist is a no-op, so it runs on every `docker compose up`.
import { loadConfigOrExit } from '../config/config.js';
import { connectTemporalClient } from './connection.js';
import { registerSearchAttributes } from './entity-directory.js';
import { SEARCH_ATTRIBUTE_NAMES } from '../domain/operators/rules.js';

const config = loadConfigOrExit();
const temporal = await connectTemporalClient(config);
try {
  const registration = await registerSearchAttributes(temporal, config.TEMPORAL_NAMESPACE);
  if (!registration.registered) {
    console.error(`tollgate: search attributes not registered: ${registration.reason}`);
    process.exitCode = 1;
  } else {
    console.log(
      `search attributes registered in ${config.TEMPORAL_NAMESPACE}: ${SEARCH_ATTRIBUTE_NAMES.join(', ')}`,
    );
  }
} finally {
  await temporal.connection.close();
}
