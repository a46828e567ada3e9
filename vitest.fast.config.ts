// The fast tier (`npm run test:fast`): the unit tests of vitest.config.ts except the heavy
// files below, so that typecheck + format + these stay under 3 minutes on two cores.
// Rule: a file goes on HEAVY when its tests take more than 3 s (endTime − startTime of the
// file in `npx vitest run --config vitest.fast.config.ts --reporter=json --outputFile=t.json`
// on the two-core machine): training a model, fine-tuning an encoder, running a `mekong`
// command end to end, a server or worker round trip, or streaming a large corpus. The list
// was measured on 2026-11-27 in two runs on that machine shared with other jobs: the whole
// unit suite (load 15–25; every file listed from it took 13 s or more there) and then the
// fast tier itself (load 4–6; the seconds noted). `npm test`, which CI runs, runs every file.
// Two workers here (the unit config's default is one on two cores). Files stay isolated from
// each other, as in `npm test`: sharing a worker's module cache between files halved the time
// but made three files fail that pass alone (state left by an earlier file).
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import unit from './vitest.config.ts';

/** Unit test files left out of the fast tier, slowest first within each measured run. */
export const HEAVY = [
  // the whole unit suite, seconds at load 15–25
  'tests/unit/train/score-pairs.test.ts', // 300
  'tests/unit/cli/project-cli.test.ts', // 179
  'tests/unit/models/transformer/encoder-cli.test.ts', // 179
  'tests/unit/cli/mine-cli.test.ts', // 93
  'tests/unit/cli/eval-cli.test.ts', // 291 (at load 20: 21 `mekong` runs)
  'tests/unit/models/siamese/siamese-cli.test.ts', // 85
  'tests/unit/cli/word-list-cli.test.ts', // 80
  'tests/unit/models/bilstm/cli.test.ts', // 64
  'tests/unit/models/bisent2vec/parallel-train.test.ts', // 61
  'tests/unit/models/siamese/sentence-encoders.test.ts', // 56
  'tests/unit/models/bisent2vec/curation.test.ts', // 49
  'tests/unit/cli/resegment-cli.test.ts', // 44
  'tests/unit/models/bilstm/buckets.test.ts', // 43
  'tests/unit/corpus/streaming.test.ts', // 39
  'tests/unit/align/pivot.test.ts', // 31
  'tests/unit/align/hmm-kernel.test.ts', // 26
  'tests/unit/train/mine-job.test.ts', // 26
  'tests/unit/models/bilstm/vocab-growth.test.ts', // 26
  'tests/unit/cli/malloc-tuning.test.ts', // 23
  'tests/unit/models/bilstm/aligner.test.ts', // 23
  'tests/unit/models/transformer/finetune.test.ts', // 22
  'tests/unit/models/bilstm/epochs.test.ts', // 17
  'tests/unit/text/segment-long.test.ts', // 17
  'tests/unit/train/models-api.test.ts', // 15
  'tests/unit/models/bilstm/vocab.test.ts', // 13
  // the fast tier, seconds at load 4–6
  'tests/unit/store/job-leases.test.ts', // 48.9
  'tests/unit/train/neural-worker.test.ts', // 30.5
  'tests/unit/corpus/import-export.test.ts', // 24.9
  'tests/unit/review/resegment.test.ts', // 15.7
  'tests/unit/store/project-store.test.ts', // 7.4
  'tests/unit/api/server-during-jobs.test.ts', // 7.2
  'tests/unit/api/server.test.ts', // 6.8
  'tests/unit/train/finetune-run.test.ts', // 6.3
  'tests/unit/corpus/jsonl.test.ts', // 5.3
  'tests/unit/nn/model-folder.test.ts', // 4.4
  'tests/unit/aligners/registry.test.ts', // 4.2
  'tests/unit/models/transformer/encoder.test.ts', // 4.0
  'tests/unit/store/read-only.test.ts', // 3.9
  'tests/unit/fuzz/fuzz-slice.test.ts', // 3.9
  'tests/unit/align/align-job.test.ts', // 3.6
  'tests/unit/jobs/worker-protocol.test.ts', // 3.6
  'tests/unit/nn/contrastive-e2e.test.ts', // 3.5
  'tests/unit/align/cli.test.ts', // 3.4
  'tests/unit/nn/ort-environment.test.ts', // 3.2
  'tests/unit/models/model-folders.test.ts', // 3.1
  // files added since, measured in later runs of the fast tier
  'tests/unit/store/damage.test.ts', // 51.1
  'tests/unit/cli/serve-stop.test.ts', // 21.3
  'tests/unit/store/disk-full.test.ts', // 18.5
  // files added since, measured in a run of the whole unit suite (load 4–7)
  'tests/unit/store/bounded-writes.test.ts', // 74.0
  'tests/unit/store/byte-flip.test.ts', // 62.8
  'tests/unit/store/backup.test.ts', // 22.9
  'tests/unit/aligners/encoder-align-job.test.ts', // 4.4
  // a file added since, measured alone at load 17–20: imports and aligns the 265-pair sample
  'tests/unit/editor/split-model-links.test.ts', // 45.6
  // a file added since, measured alone at load 15–20: three Align jobs and two agree runs on the sample
  'tests/unit/align/posterior-decode.test.ts', // 177.6
];

export default mergeConfig(
  unit,
  defineConfig({
    test: { exclude: [...configDefaults.exclude, ...HEAVY], maxWorkers: 2 },
  }),
);
