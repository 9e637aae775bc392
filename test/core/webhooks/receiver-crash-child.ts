// A receiver process for the crash test: runs the webhook receiver on the database file given as the
// first argument, with the callback token given as the second, prints {"port","path"} as one JSON
// line, and, when PROCURE_TEST_KILL_AFTER_OK=1, kills itself with SIGKILL right after its first OK
// has been written (no cleanup, no close: the hardest way to stop).
import { openDatabase } from '../../../src/core/db/open-database';
import { migrate } from '../../../src/core/db/migrate';
import { createWebhookReceiver } from '../../../src/core/webhooks/webhook-receiver';
import { RedactingLogger, streamSink } from '../../../src/core/logging/redacting-logger';
import { systemClock } from '../../../src/core/platform/clock';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';

const [file, token, port] = process.argv.slice(2);
if (file === undefined || token === undefined) throw new Error('usage: receiver-crash-child <db file> <token> [port]');
const db = openDatabase(file);
migrate(db);
const cipher = await CardCipher.open(new MemorySecretStore());
const killAfterOk = process.env.PROCURE_TEST_KILL_AFTER_OK === '1';
const receiver = createWebhookReceiver({
  db,
  cipher,
  clock: systemClock,
  logger: new RedactingLogger({ sink: streamSink(process.stderr) }),
  token,
  port: port === undefined ? 0 : Number(port),
  onStored: () => {
    if (killAfterOk) process.kill(process.pid, 'SIGKILL');
  },
});
const started = await receiver.start();
process.stdout.write(`${JSON.stringify(started)}\n`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
