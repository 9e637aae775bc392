// `run [--until-idle]`: recovers intents a crash left mid-send, then runs the outbox and the order
// tracker until SIGTERM/SIGINT (or, with --until-idle, until no intent waits to be sent).
import { allowOnly, type ParsedArgs } from '../cli-args';
import type { CliContext } from '../cli-context';
import { progress } from '../output';

export async function runCommand(context: CliContext, args: ParsedArgs): Promise<void> {
  allowOnly(args, []);
  const { core } = context;
  const services = await core.merchant();
  const recovered = services.outbox.recover();
  if (recovered > 0) progress(`recovering ${recovered} order(s) whose outcome was unknown`);
  services.outbox.start();
  services.tracker.start();
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
    if (args.flags.has('until-idle')) {
      const check = (): void => {
        const counts = services.intents.countByStatus();
        if (counts.queued + counts.sending + counts.unknown === 0) resolve();
        else setTimeout(check, 200);
      };
      check();
    }
  });
  await services.outbox.stop();
  await services.tracker.stop();
}
