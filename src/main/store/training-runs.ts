// Trained models, their training runs, curves and checkpoints (tables models,
// training_runs, metrics, run_checkpoints): what the Models page lists, and the writes a
// training job makes as it goes. Step metrics arrive many per second, so they are buffered
// and written in one transaction per flush.
import type { DeviceUse } from '../../shared/device-settings.ts';
import {
  checkpointRanking,
  type CheckpointInfo,
  type MetricPoint,
  type ModelInfo,
  type RunInfo,
  type RunState,
  type SelectBy,
  type TrainOptions,
} from '../../shared/models-api.ts';
import { TRAINABLE_METHODS } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import type { Db } from './database.ts';
import { ownerAlive, releaseLease, takeLease } from './job-leases.ts';
import { dbOf, type Project } from './connection.ts';
import { SEEN } from './alignments.ts';

/** What a run trained and was evaluated on (training_runs.stats). */
export interface RunStats {
  pairs: number;
  /** gold pairs (In review or Done with gold links: store/pair-corpus.ts) */
  goldPairs: number;
  /** pairs holding gold links that are not gold pairs (partial gold), left out of supervision and evaluation */
  partialGoldPairs?: number;
  pseudoPairs: number;
  /** pairs supervised (also) by the attached dictionaries' one-to-one matches */
  dictionaryPairs?: number;
  evalPairs: number;
  /** a continued run: words its starting checkpoint lacked, added to its vocabulary */
  newWords?: { src: number; tgt: number };
  /** the device asked for and the provider that ran the training */
  device?: DeviceUse;
}

export interface RunRow {
  id: number;
  model_id: number;
  state: RunState;
  config: string;
  stats: string;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

const now = () => new Date().toISOString();

/** A model without a training run (statistical: its parameters live in the alignment it made; encoder: a pretrained folder used as it is). */
export function createUntrainedModel(project: Project, name: string, kind: 'statistical' | 'encoder', config: unknown): number {
  const db = dbOf(project);
  return Number(
    db.prepare(`INSERT INTO models (name, kind, config, created_at) VALUES (?, ?, ?, ?)`).run(name, kind, JSON.stringify(config), now())
      .lastInsertRowid,
  );
}

/** A new model (kind = method) with its first run, state 'running'. */
export function createModelRun(project: Project, name: string, config: TrainOptions): { modelId: number; runId: number } {
  const db = dbOf(project);
  return db.transaction(() => {
    const when = now();
    const modelId = Number(
      db
        .prepare(`INSERT INTO models (name, kind, config, created_at) VALUES (?, ?, ?, ?)`)
        .run(name, config.method, JSON.stringify(config), when).lastInsertRowid,
    );
    return { modelId, runId: createRun(project, modelId, config) };
  })();
}

/** A further run of an existing model (continued from one of its checkpoints), owned by this process's lease until finishRun. */
export function createRun(project: Project, modelId: number, config: TrainOptions): number {
  const db = dbOf(project);
  const lease = takeLease(db);
  try {
    return Number(
      db
        .prepare(`INSERT INTO training_runs (model_id, state, config, started_at, owner) VALUES (?, 'running', ?, ?, ?)`)
        .run(modelId, JSON.stringify(config), now(), lease?.owner ?? null).lastInsertRowid,
    );
  } catch (err) {
    lease?.release();
    throw err;
  }
}

/** Once the job has read its data: the options completed with the values used, and what it trains on. */
export function setRunSetup(project: Project, runId: number, config: TrainOptions, stats: RunStats): void {
  const db = dbOf(project);
  db.prepare(`UPDATE training_runs SET config = ?, stats = ? WHERE id = ?`).run(JSON.stringify(config), JSON.stringify(stats), runId);
}

export function finishRun(project: Project, runId: number, state: Exclude<RunState, 'running'>, error: string | null = null): void {
  const db = dbOf(project);
  const owner = db.prepare(`SELECT owner FROM training_runs WHERE id = ?`).pluck().get(runId) as string | null | undefined;
  try {
    db.prepare(`UPDATE training_runs SET state = ?, error = ?, finished_at = ? WHERE id = ?`).run(state, error, now(), runId);
  } finally {
    releaseLease(owner ?? null);
  }
}

/**
 * Runs a crash or kill left 'running' become 'failed': only those whose owning process is
 * gone (job-leases.ts), never a run that the app or another command is still training.
 */
export function failInterruptedRuns(db: Db): void {
  const running = db.prepare(`SELECT id, owner FROM training_runs WHERE state = 'running'`).all() as { id: number; owner: string | null }[];
  const fail = db.prepare(
    `UPDATE training_runs SET state = 'failed', error = 'the app stopped while this run was training', finished_at = ?
    WHERE id = ? AND state = 'running'`,
  );
  for (const r of running) if (!ownerAlive(db, r.owner)) fail.run(now(), r.id);
}

/** The lease ids that unfinished training runs name (the lease files still in use). */
export function runOwners(db: Db): string[] {
  return db.prepare(`SELECT owner FROM training_runs WHERE state = 'running' AND owner IS NOT NULL`).pluck().all() as string[];
}

export function getRun(project: Project, runId: number): RunRow {
  const db = dbOf(project);
  const row = db.prepare(`SELECT * FROM training_runs WHERE id = ?`).get(runId) as RunRow | undefined;
  if (!row) throw new UserError(`no training run ${runId} in this project`);
  return row;
}

/** The training run an alignment was made with, when it was made by a trained model that learnt from gold links. */
export function goldTrainedRunOf(project: Project, alignmentId: number): number | null {
  const db = dbOf(project);
  const row = db
    .prepare(`SELECT r.id, r.stats FROM alignments a JOIN training_runs r ON r.id = a.run_id WHERE a.id = ?`)
    .get(alignmentId) as { id: number; stats: string } | undefined;
  if (!row) return null;
  const stats = JSON.parse(row.stats) as Partial<RunStats>;
  return (stats.goldPairs ?? 0) > 0 ? row.id : null;
}

export function runsOfModel(project: Project, modelId: number): RunRow[] {
  const db = dbOf(project);
  if (!db.prepare(`SELECT 1 FROM models WHERE id = ?`).get(modelId)) throw new UserError(`no model ${modelId} in this project`);
  return db.prepare(`SELECT * FROM training_runs WHERE model_id = ? ORDER BY id`).all(modelId) as RunRow[];
}

/** Buffers metric points; `flush` writes them in one transaction (a point written twice keeps the last value) or, failing, keeps them. */
export interface MetricWriter {
  add(name: string, step: number, value: number): void;
  flush(): void;
}

export function metricWriter(project: Project, runId: number): MetricWriter {
  const db = dbOf(project);
  const insert = db.prepare(`INSERT OR REPLACE INTO metrics (run_id, step, name, value) VALUES (?, ?, ?, ?)`);
  const write = db.transaction((points: MetricPoint[]) => {
    for (const p of points) insert.run(runId, p.step, p.name, p.value);
  });
  let buffer: MetricPoint[] = [];
  return {
    add: (name, step, value) => void (Number.isFinite(value) && buffer.push({ name, step, value })),
    flush: () => {
      if (!buffer.length) return;
      const points = buffer;
      buffer = [];
      try {
        write(points);
      } catch (err) {
        buffer = points.concat(buffer);
        throw err;
      }
    },
  };
}

export function recordCheckpoint(project: Project, runId: number, epoch: number, step: number): void {
  const db = dbOf(project);
  db.prepare(`INSERT OR REPLACE INTO run_checkpoints (run_id, epoch, step) VALUES (?, ?, ?)`).run(runId, epoch, step);
}

export function metricsOf(project: Project, runId: number): MetricPoint[] {
  const db = dbOf(project);
  return db.prepare(`SELECT name, step, value FROM metrics WHERE run_id = ? ORDER BY name, step`).all(runId) as MetricPoint[];
}

/** A run's checkpoints in epoch order, with the metrics measured at their step. */
export function checkpointsOf(project: Project, runId: number): CheckpointInfo[] {
  const db = dbOf(project);
  const rows = db
    .prepare(
      `SELECT c.epoch, c.step,
      (SELECT value FROM metrics m WHERE m.run_id = c.run_id AND m.step = c.step AND m.name = 'epoch_loss') AS loss,
      (SELECT value FROM metrics m WHERE m.run_id = c.run_id AND m.step = c.step AND m.name = 'aer') AS aer,
      (SELECT value FROM metrics m WHERE m.run_id = c.run_id AND m.step = c.step AND m.name = 'precision') AS precision,
      (SELECT value FROM metrics m WHERE m.run_id = c.run_id AND m.step = c.step AND m.name = 'recall') AS recall,
      (SELECT value FROM metrics m WHERE m.run_id = c.run_id AND m.step = c.step AND m.name = 'retrieval_p1') AS retrieval
    FROM run_checkpoints c WHERE c.run_id = ? ORDER BY c.epoch`,
    )
    .all(runId) as (CheckpointInfo & { loss: number | null })[];
  return rows.map((r) => ({ ...r, loss: r.loss ?? Number.NaN }));
}

/**
 * The checkpoint to use by default, as the run ranked them (`by`, checkpointRanking): the
 * lowest dev AER or the highest dev retrieval P@1 — the other when no checkpoint has the one
 * (as the fine-tuning's own scoring does: encoder-checkpoint-score.ts) — else the last one;
 * null when the run saved none.
 */
export function bestCheckpoint(checkpoints: readonly CheckpointInfo[], by: SelectBy): CheckpointInfo | null {
  const withAer = checkpoints.filter((c) => c.aer !== null);
  const withRetrieval = checkpoints.filter((c) => c.retrieval !== null);
  const lowestAer = withAer.length ? withAer.reduce((a, b) => (b.aer! < a.aer! ? b : a)) : null;
  const highestRetrieval = withRetrieval.length ? withRetrieval.reduce((a, b) => (b.retrieval! > a.retrieval! ? b : a)) : null;
  const [first, second] = by === 'retrieval' ? [highestRetrieval, lowestAer] : [lowestAer, highestRetrieval];
  return first ?? second ?? checkpoints.at(-1) ?? null;
}

/** Run `runId`'s checkpoint to use by default (bestCheckpoint, as its options rank them: `by`). */
export function bestCheckpointOfRun(project: Project, runId: number): (CheckpointInfo & { by: SelectBy }) | null {
  const by = checkpointRanking(JSON.parse(getRun(project, runId).config) as TrainOptions);
  const best = bestCheckpoint(checkpointsOf(project, runId), by);
  return best && { ...best, by };
}

/** The jobs at work on a run right now (train/active-jobs.ts), by kind. */
export type RunJobs = (runId: number, kind: 'train' | 'realign') => string | null;

function runInfo(project: Project, r: RunRow, jobOf: RunJobs): RunInfo {
  const db = dbOf(project);
  const stats: Partial<RunStats> = JSON.parse(r.stats);
  const alignments = db.prepare(`SELECT a.id FROM alignments a WHERE a.run_id = ? AND ${SEEN} ORDER BY a.id`).all(r.id) as { id: number }[];
  const checkpoints = checkpointsOf(project, r.id);
  const config = JSON.parse(r.config) as TrainOptions;
  return {
    id: r.id,
    modelId: r.model_id,
    state: r.state,
    config,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    error: r.error,
    pairs: stats.pairs ?? 0,
    goldPairs: stats.goldPairs ?? 0,
    partialGoldPairs: stats.partialGoldPairs ?? 0,
    pseudoPairs: stats.pseudoPairs ?? 0,
    dictionaryPairs: stats.dictionaryPairs ?? 0,
    evalPairs: stats.evalPairs ?? 0,
    newWords: stats.newWords ?? null,
    device: stats.device ?? null,
    checkpoints,
    bestEpoch: bestCheckpoint(checkpoints, checkpointRanking(config))?.epoch ?? null,
    alignmentIds: alignments.map((a) => a.id),
    jobId: r.state === 'running' ? jobOf(r.id, 'train') : null,
    realignJobId: jobOf(r.id, 'realign'),
  };
}

/** Models of the trainable kinds (TRAINABLE_METHODS), newest first, each with its runs. */
export function listModels(project: Project, jobOf: RunJobs): ModelInfo[] {
  const db = dbOf(project);
  const kinds = TRAINABLE_METHODS.map(() => '?').join(', ');
  const models = db
    .prepare(`SELECT id, name, kind, created_at FROM models WHERE kind IN (${kinds}) ORDER BY id DESC`)
    .all(...TRAINABLE_METHODS) as { id: number; name: string; kind: string; created_at: string }[];
  return models.map((m) => ({
    id: m.id,
    name: m.name,
    kind: m.kind,
    createdAt: m.created_at,
    runs: (db.prepare(`SELECT * FROM training_runs WHERE model_id = ? ORDER BY id`).all(m.id) as RunRow[]).map((r) =>
      runInfo(project, r, jobOf),
    ),
  }));
}

/** Deletes a model with its runs, metrics and checkpoint rows; alignments made from it stay, unlinked. */
export function deleteModelRows(project: Project, modelId: number): void {
  const db = dbOf(project);
  db.prepare(`DELETE FROM models WHERE id = ?`).run(modelId);
}
