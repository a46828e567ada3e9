// The project file's schema, as numbered migrations applied in order inside one
// transaction each; PRAGMA user_version records the last one applied. Never edit a
// migration that has shipped: add the next one.
//
// Tokens are kept per pair side as a blob of Uint32 (start, end) offset pairs into the
// pair's text (see text/offsets.ts): one row per pair instead of one per token keeps a
// million-pair import within seconds, and token texts are always recoverable by slicing.
export const MIGRATIONS: readonly string[] = [
  /* 1: the base schema */ `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    file        TEXT NOT NULL,
    format      TEXT NOT NULL,
    state       TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done')),
    pairs       INTEGER NOT NULL DEFAULT 0,
    started_at  TEXT NOT NULL,
    finished_at TEXT
  );

  CREATE TABLE pairs (
    id         INTEGER PRIMARY KEY,
    import_id  INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    src_text   TEXT NOT NULL,
    tgt_text   TEXT NOT NULL,
    src_tokens BLOB NOT NULL,
    tgt_tokens BLOB NOT NULL,
    status     TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in-review', 'done', 'flagged')),
    split      TEXT NOT NULL DEFAULT 'train' CHECK (split IN ('train', 'dev', 'test')),
    note       TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX pairs_status ON pairs(status);

  CREATE TABLE models (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    path       TEXT,
    config     TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
  );

  CREATE TABLE training_runs (
    id          INTEGER PRIMARY KEY,
    model_id    INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    state       TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
    config      TEXT NOT NULL DEFAULT '{}',
    started_at  TEXT NOT NULL,
    finished_at TEXT
  );

  CREATE TABLE metrics (
    run_id INTEGER NOT NULL REFERENCES training_runs(id) ON DELETE CASCADE,
    step   INTEGER NOT NULL,
    name   TEXT NOT NULL,
    value  REAL NOT NULL,
    PRIMARY KEY (run_id, name, step)
  ) WITHOUT ROWID;

  CREATE TABLE alignments (
    id         INTEGER PRIMARY KEY,
    origin     TEXT NOT NULL CHECK (origin IN ('gold', 'model', 'import')),
    annotator  TEXT,
    model_id   INTEGER REFERENCES models(id) ON DELETE SET NULL,
    run_id     INTEGER REFERENCES training_runs(id) ON DELETE SET NULL,
    import_id  INTEGER REFERENCES imports(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CHECK (origin != 'gold' OR annotator IS NOT NULL)
  );
  CREATE UNIQUE INDEX alignments_gold_annotator ON alignments(annotator) WHERE origin = 'gold';

  CREATE TABLE links (
    alignment_id INTEGER NOT NULL REFERENCES alignments(id) ON DELETE CASCADE,
    pair_id      INTEGER NOT NULL REFERENCES pairs(id) ON DELETE CASCADE,
    s            INTEGER NOT NULL CHECK (s >= 0),
    t            INTEGER NOT NULL CHECK (t >= 0),
    kind         TEXT NOT NULL CHECK (kind IN ('sure', 'possible')),
    score        REAL CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
    PRIMARY KEY (alignment_id, pair_id, s, t)
  ) WITHOUT ROWID;
  CREATE INDEX links_pair ON links(pair_id);

  CREATE TABLE rejected_links (
    pair_id    INTEGER NOT NULL REFERENCES pairs(id) ON DELETE CASCADE,
    s          INTEGER NOT NULL,
    t          INTEGER NOT NULL,
    annotator  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (pair_id, s, t)
  ) WITHOUT ROWID;

  -- Words a linguist fixed by splitting or merging tokens: segmentation merges ICU
  -- pieces into these (text/word-merge.ts), so the rest of the corpus benefits.
  CREATE TABLE word_list (
    lang     TEXT NOT NULL,
    word     TEXT NOT NULL,
    added_by TEXT NOT NULL,
    PRIMARY KEY (lang, word)
  ) WITHOUT ROWID;

  CREATE TABLE edit_events (
    id        INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    annotator TEXT NOT NULL,
    pair_id   INTEGER REFERENCES pairs(id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    payload   TEXT NOT NULL,
    undoes    INTEGER REFERENCES edit_events(id)
  );
  CREATE INDEX edit_events_pair ON edit_events(pair_id);
  CREATE TRIGGER edit_events_append_only_update BEFORE UPDATE ON edit_events
    BEGIN SELECT RAISE(ABORT, 'edit_events is append-only'); END;
  `,
  /* 2: the editor — "not translated" markers per alignment, edit groups (bulk fixes undone as one) */ `
  CREATE TABLE untranslated (
    alignment_id INTEGER NOT NULL REFERENCES alignments(id) ON DELETE CASCADE,
    pair_id      INTEGER NOT NULL REFERENCES pairs(id) ON DELETE CASCADE,
    side         TEXT NOT NULL CHECK (side IN ('src', 'tgt')),
    idx          INTEGER NOT NULL CHECK (idx >= 0),
    PRIMARY KEY (alignment_id, pair_id, side, idx)
  ) WITHOUT ROWID;
  CREATE INDEX untranslated_pair ON untranslated(pair_id);

  ALTER TABLE edit_events ADD COLUMN group_id INTEGER;
  CREATE INDEX edit_events_annotator ON edit_events(annotator, id);
  `,
  /* 3: training runs — what a run trained on, why it failed, its saved checkpoints */ `
  ALTER TABLE training_runs ADD COLUMN stats TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE training_runs ADD COLUMN error TEXT;

  -- A checkpoint's files live in <project>.models/run-<run_id>/epoch-<epoch>/ (train/run-files.ts).
  CREATE TABLE run_checkpoints (
    run_id INTEGER NOT NULL REFERENCES training_runs(id) ON DELETE CASCADE,
    epoch  INTEGER NOT NULL CHECK (epoch >= 1),
    step   INTEGER NOT NULL,
    PRIMARY KEY (run_id, epoch)
  ) WITHOUT ROWID;
  `,
  /* 4: link tags — a link's type from the project's tag set (meta 'link_tags'), null when untagged */ `
  ALTER TABLE links ADD COLUMN tag TEXT CHECK (tag IS NULL OR (length(tag) BETWEEN 1 AND 40));
  `,
  /* 5: rejections per annotator — two annotators may reject the same link, and a blind annotator sees only their own */ `
  CREATE TABLE rejected_links_by (
    pair_id    INTEGER NOT NULL REFERENCES pairs(id) ON DELETE CASCADE,
    s          INTEGER NOT NULL,
    t          INTEGER NOT NULL,
    annotator  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (pair_id, s, t, annotator)
  ) WITHOUT ROWID;
  INSERT INTO rejected_links_by SELECT pair_id, s, t, annotator, created_at FROM rejected_links;
  DROP TABLE rejected_links;
  ALTER TABLE rejected_links_by RENAME TO rejected_links;
  `,
  /* 6: calibrated model alignments — how their scores were calibrated on held-out gold (JSON, shared/calibration-report.ts) */ `
  ALTER TABLE alignments ADD COLUMN calibration TEXT;
  `,
  /* 7: counting visible pairs from an index, not a scan of the table's pages (project-store.ts countPairs) */ `
  CREATE INDEX pairs_visible ON pairs(import_id, status);
  `,
  /* 8: dictionaries attached to the project — a file's or a composed dictionary's entries, which the Align job uses as a prior */ `
  CREATE TABLE dictionaries (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    -- how it was made: the dictionary specs, the pivot language and cut-off (JSON)
    source      TEXT NOT NULL,
    -- src<TAB>tgt<TAB>weight lines, as align/dictionary.ts reads them
    entries     TEXT NOT NULL,
    entry_count INTEGER NOT NULL CHECK (entry_count >= 0),
    attached_at TEXT NOT NULL
  );
  `,
  /* 9: sentence-level curation — each pair's parallelism score (margin of its sentence vectors, with the best other candidate) and pairs excluded from training and export */ `
  CREATE TABLE pair_scores (
    pair_id     INTEGER PRIMARY KEY REFERENCES pairs(id) ON DELETE CASCADE,
    score       REAL NOT NULL,
    misaligned  INTEGER NOT NULL CHECK (misaligned IN (0, 1)),
    -- the best-scoring other candidate: the pair whose source ('source') or target ('target') sentence it is
    rival_pair  INTEGER,
    rival_side  TEXT CHECK (rival_side IS NULL OR rival_side IN ('source', 'target')),
    rival_score REAL
  ) WITHOUT ROWID;
  CREATE INDEX pair_scores_misaligned ON pair_scores(misaligned, score);
  ALTER TABLE pairs ADD COLUMN excluded INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1));
  `,
  /* 10: mining — pairs proposed between two monolingual files, reviewed one by one; accepted ones join the corpus as an import that remembers where each came from */ `
  CREATE TABLE mine_runs (
    id         INTEGER PRIMARY KEY,
    src_file   TEXT NOT NULL,
    tgt_file   TEXT NOT NULL,
    -- non-blank lines read from each file
    src_lines  INTEGER NOT NULL,
    tgt_lines  INTEGER NOT NULL,
    threshold  REAL NOT NULL,
    -- how the threshold was chosen: given, or found on held-out project pairs (with its F1 there)
    threshold_source TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE mine_proposals (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES mine_runs(id) ON DELETE CASCADE,
    -- 1-based line numbers in the run's files
    src_line    INTEGER NOT NULL,
    tgt_line    INTEGER NOT NULL,
    src_text    TEXT NOT NULL,
    tgt_text    TEXT NOT NULL,
    src_tokens  BLOB NOT NULL,
    tgt_tokens  BLOB NOT NULL,
    score       REAL NOT NULL,
    decision    TEXT NOT NULL DEFAULT 'pending' CHECK (decision IN ('pending', 'accepted', 'rejected')),
    -- the corpus pair an accepted proposal became
    pair_id     INTEGER REFERENCES pairs(id) ON DELETE SET NULL
  );
  CREATE INDEX mine_proposals_run ON mine_proposals(run_id, decision, score);
  `,
  /* 11: job ownership — the lease (store/job-leases.ts) of the process that runs an unfinished import or training run; opening a project cleans up only rows whose owner is gone */ `
  ALTER TABLE imports ADD COLUMN owner TEXT;
  ALTER TABLE training_runs ADD COLUMN owner TEXT;
  `,
  /* 12: double annotation kept apart — the adjudicated gold as its own layer, and each annotator's own status and note of a pair */ `
  -- The adjudicated gold: one gold layer per project (annotator 'adjudicated', a label, not
  -- a person), written by adjudication only, never an annotator's own gold.
  ALTER TABLE alignments ADD COLUMN adjudicated INTEGER NOT NULL DEFAULT 0
    CHECK (adjudicated IN (0, 1) AND (adjudicated = 0 OR origin = 'gold'));
  DROP INDEX alignments_gold_annotator;
  CREATE UNIQUE INDEX alignments_gold_annotator ON alignments(annotator) WHERE origin = 'gold' AND adjudicated = 0;
  CREATE UNIQUE INDEX alignments_adjudicated ON alignments(adjudicated) WHERE adjudicated = 1;

  -- Each annotator's own status and note of a pair (store/pair-reviews.ts). A pair's status
  -- and note stay on pairs too: the last one set by anyone, what shared annotation shows.
  CREATE TABLE pair_reviews (
    pair_id   INTEGER NOT NULL REFERENCES pairs(id) ON DELETE CASCADE,
    annotator TEXT NOT NULL,
    status    TEXT NOT NULL CHECK (status IN ('new', 'in-review', 'done', 'flagged')),
    note      TEXT NOT NULL,
    PRIMARY KEY (pair_id, annotator)
  ) WITHOUT ROWID;
  -- A status or note set before is the one of whoever set it last (the edit log says who);
  -- one an import brought, which no one set, stays the pair's own.
  INSERT INTO pair_reviews (pair_id, annotator, status, note)
    SELECT p.id, e.annotator, p.status, p.note FROM pairs p JOIN edit_events e ON e.id = (
      SELECT max(x.id) FROM edit_events x WHERE x.pair_id = p.id
        AND (json_extract(x.payload, '$.after.status') IS NOT NULL OR json_extract(x.payload, '$.after.note') IS NOT NULL))
    WHERE p.status <> 'new' OR p.note <> '';
  `,
  /* 13: assignments — which annotator is to work on which pair (store/assignments.ts); a pair given to two annotators is doubly annotated */ `
  CREATE TABLE assignments (
    pair_id   INTEGER NOT NULL REFERENCES pairs(id) ON DELETE CASCADE,
    annotator TEXT NOT NULL,
    PRIMARY KEY (pair_id, annotator)
  ) WITHOUT ROWID;
  CREATE INDEX assignments_annotator ON assignments(annotator, pair_id);
  `,
  /* 14: pending segmentation fixes — a merge or split made in the editor, offered for its other occurrences in the corpus until applied or dismissed (store/segmentation-offers.ts) */ `
  CREATE TABLE segmentation_offers (
    id        INTEGER PRIMARY KEY,
    side      TEXT NOT NULL CHECK (side IN ('src', 'tgt')),
    -- the fix as 'tokens.bulkFix' takes it, as canonical JSON (one row per fix and side)
    fix       TEXT NOT NULL,
    -- the pair it was made on, and by whom
    pair_id   INTEGER REFERENCES pairs(id) ON DELETE SET NULL,
    annotator TEXT NOT NULL,
    at        TEXT NOT NULL,
    UNIQUE (side, fix)
  );
  `,
  /* 15: answered requests — the request ids of changes the server answered, so that a call sent again after a restart runs once (store/answered-requests.ts) */ `
  CREATE TABLE answered_requests (
    id         INTEGER PRIMARY KEY,
    -- the account that sent it ('' on a single-user server), the channel and the page's id
    account    TEXT NOT NULL,
    channel    TEXT NOT NULL,
    request_id TEXT NOT NULL,
    -- milliseconds since 1970: when its change was committed (or, for a call that changed nothing, answered)
    at         INTEGER NOT NULL,
    -- the answer as JSON; NULL from the commit of the change until the answer is saved
    answer     TEXT,
    UNIQUE (account, channel, request_id)
  );
  CREATE INDEX answered_requests_at ON answered_requests(at);
  `,
  /* 16: the pairs' token counts (store/pairs.ts queueCandidates) and excluded flags (the project's counts) in an index, so that the review queue and project.info read it rather than the pairs' rows */ `
  CREATE INDEX pairs_queue ON pairs(import_id, status, excluded, length(src_tokens), length(tgt_tokens));
  `,
  /* 17: the word index (store/word-index.ts) — each pair's words, lowercased, with which side they are on, so that the concordance reads the pairs holding a word pair and not every text */ `
  -- One row per pair (rowid = pairs.id): its source words as 's' + word and its target words
  -- as 't' + word (a word holding white space: its pieces, as 'p' + piece and 'q' + piece), joined by spaces. No content kept (contentless, with deletes: a pair whose
  -- words change is removed and added again) and no positions (detail=none). The tokenizer
  -- splits at ASCII white space and control characters only: every other ASCII character
  -- (punctuation included) is made a token character, and the ascii tokenizer keeps every
  -- non-ASCII one (unicode61 cuts Lao and Thai words at their vowel and tone marks).
  CREATE VIRTUAL TABLE pair_words USING fts5(words, content = '', contentless_delete = 1, detail = none,
    tokenize = "ascii tokenchars '!""#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~'");
  -- Every visible pair with id <= indexed_to is in pair_words, less those in pair_words_stale.
  CREATE TABLE pair_words_state (
    one        INTEGER PRIMARY KEY CHECK (one = 1),
    indexed_to INTEGER NOT NULL
  );
  INSERT INTO pair_words_state VALUES (1, 0);
  -- Indexed pairs whose text or tokens changed since: their words in pair_words are the old
  -- ones until the indexer replaces them (a delete from pair_words costs about 0.2 ms, too
  -- much for every pair of a resegmentation to pay as it is written).
  CREATE TABLE pair_words_stale (pair_id INTEGER PRIMARY KEY);
  CREATE TRIGGER pair_words_changed AFTER UPDATE OF src_text, tgt_text, src_tokens, tgt_tokens ON pairs
    WHEN old.id <= (SELECT indexed_to FROM pair_words_state)
  BEGIN
    INSERT OR IGNORE INTO pair_words_stale (pair_id) VALUES (old.id);
  END;
  -- A deleted pair leaves the index; when no pair above it remains, indexed_to comes down, so
  -- that an id SQLite gives a new pair (the highest + 1) is never one counted as indexed.
  CREATE TRIGGER pair_words_deleted AFTER DELETE ON pairs
    WHEN old.id <= (SELECT indexed_to FROM pair_words_state)
  BEGIN
    DELETE FROM pair_words WHERE rowid = old.id;
    DELETE FROM pair_words_stale WHERE pair_id = old.id;
    UPDATE pair_words_state SET indexed_to = (SELECT coalesce(max(id), 0) FROM pairs)
      WHERE indexed_to > (SELECT coalesce(max(id), 0) FROM pairs);
  END;
  `,
];
