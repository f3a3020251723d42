-- allot index, schema 2: which files each generation changed, so caches built
-- from the store (the structural retriever's objects, resolver and reference
-- graph) follow a batch by updating only those files instead of rebuilding.

-- One row per file a generation changed: written, removed, or whose references
-- were resolved to other targets. A rename is a removal plus a write.
CREATE TABLE file_changes (
  generation INTEGER NOT NULL,
  path       TEXT NOT NULL
);
CREATE INDEX file_changes_generation ON file_changes(generation);

-- The log is pruned: it holds every change of the generations after
-- `change_log_floor`; a cache older than that is rebuilt whole.
INSERT INTO state (key, value)
SELECT 'change_log_floor', COALESCE((SELECT value FROM state WHERE key = 'generation'), '0');
