// Which of glibc's malloc settings (bin/malloc-tuning.js) a `mekong` command line runs with,
// read from the command line before any command's module loads. Commands that never run
// onnxruntime run as they are: a second Node process would cost them about 0.44 s of CPU. The
// statistical aligner (`mekong align` or `mekong lexicon` with a method without onnxruntime)
// takes the fixed threshold without the huge pages: they raise and spread its peak at no gain in time (runs in
// turn: dup100k 254–286 MB with them, 248–279 without; cycled400k 296–357 against 251–253).
// Every other command may train or encode and takes both.
import { capabilitiesOf, DEFAULT_LEXICON_METHOD, DEFAULT_METHOD, type MethodName } from '../../shared/methods.ts';

export type MallocPlan = 'as-is' | 'threshold' | 'training';

const WITHOUT_ONNX = new Set(['project', 'info', 'check', 'import', 'export', 'resegment', 'dict']);

/** The commands that run the method their --method names, and its default. */
const METHOD_DEFAULTS: Readonly<Record<string, MethodName>> = { align: DEFAULT_METHOD, lexicon: DEFAULT_LEXICON_METHOD };

/** The value of the last `--method X` or `--method=X` after the command's name (commander keeps the last). */
function methodOption(args: readonly string[]): string | undefined {
  let method: string | undefined;
  args.forEach((a, i) => {
    if (a === '--method') method = args[i + 1];
    else if (a.startsWith('--method=')) method = a.slice('--method='.length);
  });
  return method;
}

/** The plan for `argv` (process.argv's shape: node, script, command, its arguments). */
export function mallocPlan(argv: readonly string[]): MallocPlan {
  const command = argv[2] ?? '';
  if (WITHOUT_ONNX.has(command)) return 'as-is';
  if (Object.hasOwn(METHOD_DEFAULTS, command) && !capabilitiesOf(methodOption(argv.slice(3)) ?? METHOD_DEFAULTS[command]).onnx)
    return 'threshold';
  return 'training';
}
