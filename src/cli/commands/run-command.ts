// `run [--until-idle] [--webhook-port N] [--tunnel loopback|ngrok|cloudflared|url:URL]`:
// recovers intents a crash left mid-send, then runs the outbox and the order tracker until
// SIGTERM/SIGINT (or, with --until-idle, until no intent waits to be sent). With a webhook flag it
// also starts the receiver on 127.0.0.1 (port 0 = a free one) behind the chosen tunnel (loopback by
// default), prints the callback URL it registered as one JSON line, keeps the watched products
// subscribed to it, and publishes it so that `order create` in another process puts it on new orders.
import { createWebhookService, type WebhookService } from '../../core';
import { createTunnel } from '../../core';
import type { TunnelSpec } from '../../core';
import { parseTunnelSpec, TunnelSpecError } from '../../core';
import { intOption, optionOf, UsageError, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { printJson, progress } from '../output';

interface WebhookChoice {
  port: number;
  spec: TunnelSpec;
}

/** The webhook flags, checked before anything starts; null when neither is given (polling only). */
function webhookChoice(args: ParsedArgs): WebhookChoice | null {
  const port = intOption(args, 'webhook-port', false);
  const tunnel = optionOf(args, 'tunnel');
  if (port === undefined && tunnel === undefined) return null;
  if (port !== undefined && port > 65_535) throw new UsageError('--webhook-port takes 0 (a free port) to 65535');
  try {
    return { port: port ?? 0, spec: parseTunnelSpec(tunnel ?? 'loopback') };
  } catch (error) {
    if (error instanceof TunnelSpecError) throw new UsageError(`--tunnel: ${error.message}`);
    throw error;
  }
}

export async function runCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  const choice = webhookChoice(args);
  const { core } = context;
  const services = await core.merchant();
  const recovered = services.outbox.recover();
  if (recovered > 0) progress(`recovering ${recovered} order(s) whose outcome was unknown`);

  if (choice !== null) {
    const webhooks: WebhookService = services.attachWebhooks((parts) =>
      createWebhookService({
        ...parts,
        port: choice.port,
        tunnel: createTunnel(choice.spec, { logger: parts.logger, secrets: parts.secrets, clock: parts.clock }),
      }),
    );
    const { callbackUrl } = await webhooks.start();
    printJson({ callbackUrl });
  }

  // Orders, after-sales messages queued by the app (or interrupted) go out from here too; open orders,
  // open cases and watched products are polled.
  services.startWorkers();
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
    if (args.flags.has('until-idle')) {
      const check = (): void => {
        const counts = services.intents.countByStatus();
        if (counts.queued + counts.sending + counts.unknown + counts.needs_template === 0) resolve();
        else setTimeout(check, 200);
      };
      check();
    }
  });
  await services.stopWorkers();
}
