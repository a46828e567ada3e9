// The `mekong` command. Each command lives in src/main/cli/<name>.ts and exports
// `register(program)`; cli/commands.ts assembles them and turns errors into one line.
import { runCommandLine } from './cli/commands.ts';

const code = await runCommandLine(process.argv);
if (code !== null) process.exit(code);
