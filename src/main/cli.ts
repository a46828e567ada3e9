// The `mekong` command. Each command lives in src/main/cli/<name>.ts and exports
// `register(program)`; cli/commands.ts assembles them and turns errors into one line. A
// command line that wants glibc's malloc set otherwise (cli/malloc-plan.ts) first runs this
// process again with the settings, and the work is done there.
import { relaunchWithMallocTuning } from '../../bin/malloc-tuning.js';
import { runCommandLine } from './cli/commands.ts';
import { mallocPlan } from './cli/malloc-plan.ts';

const plan = mallocPlan(process.argv);
if (plan === 'as-is' || !relaunchWithMallocTuning({ onnxruntime: plan === 'training' })) {
  const code = await runCommandLine(process.argv);
  if (code !== null) process.exit(code);
}
