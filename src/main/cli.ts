// The `mekong` command. Each command lives in src/main/cli/<name>.ts and exports
// `register(program)`; this file only assembles them and turns errors into one line.
import { Command, CommanderError } from 'commander';
import { commandsFor } from './cli/commands.ts';
import { asUserError } from './errors.ts';

const program = new Command('mekong')
  .description('Mekong: word alignment studio for low-resource language pairs')
  .exitOverride()
  .configureOutput({ outputError: (s, write) => write(s) });
for (const register of await commandsFor(process.argv)) register(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 1);
  const message = asUserError(err)?.message ?? String((err as Error)?.stack ?? err);
  process.stderr.write(`mekong: ${message}\n`);
  process.exit(1);
}
