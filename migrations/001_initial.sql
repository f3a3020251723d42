-- allot index, schema 1: files, canonical code objects, views, references and
-- the code-aware full-text index over view text.

-- One row per indexed file. `hash` (sha-1 of the bytes) decides re-parsing.
CREATE TABLE files (
  id           INTEGER PRIMARY KEY,
  path         TEXT NOT NULL UNIQUE,          -- repo-relative, '/'-separated
  language     TEXT NOT NULL,
  hash         TEXT NOT NULL,
  size         INTEGER NOT NULL,
  mtime_ms     INTEGER NOT NULL,
  line_count   INTEGER NOT NULL,
  parse_errors INTEGER NOT NULL DEFAULT 0
);

-- The text of each file as indexed (UTF-8, invalid bytes replaced), so that
-- renderings quote exactly the lines the index describes.
CREATE TABLE file_texts (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  text    TEXT NOT NULL
);

-- Canonical code objects. `id` is a stable hash of (path, qualified name, kind),
-- so re-indexing unchanged code keeps it. The provenance fiber of an object is
-- its file (`file_id`) and its enclosing object (`parent_id`).
CREATE TABLE objects (
  id             TEXT PRIMARY KEY,
  file_id        INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  parent_id      TEXT,                         -- same file; NULL for modules and files
  kind           TEXT NOT NULL,
  name           TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  start_line     INTEGER NOT NULL,
  end_line       INTEGER NOT NULL,
  start_byte     INTEGER NOT NULL,
  end_byte       INTEGER NOT NULL,
  signature      TEXT NOT NULL,
  docstring      TEXT
);
CREATE INDEX objects_file ON objects(file_id, start_line);
CREATE INDEX objects_name ON objects(name);
CREATE INDEX objects_parent ON objects(parent_id);

-- Views: renderings of an object. `file_id` is where the view's text lives:
-- the object's own file for signature/body/docstring/window, the using file for
-- callsite/import/testref (those are `derived` from resolved references and
-- rebuilt whenever resolution changes).
CREATE TABLE views (
  id         INTEGER PRIMARY KEY,
  object_id  TEXT NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
  file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  derived    INTEGER NOT NULL DEFAULT 0,
  start_line INTEGER NOT NULL,
  end_line   INTEGER NOT NULL,
  text       TEXT NOT NULL,
  tokens     INTEGER NOT NULL
);
CREATE INDEX views_object ON views(object_id);
CREATE INDEX views_file ON views(file_id);
CREATE INDEX views_derived ON views(derived);

-- References from an object to a name (one row per distinct name an object
-- uses, at its first line), resolved to a target object where the index can
-- (same file, imported module, unique name). `target_id` is rewritten by every
-- resolution pass, so it carries no foreign key.
CREATE TABLE refs (
  id        INTEGER PRIMARY KEY,
  source_id TEXT NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
  kind      TEXT NOT NULL,                     -- call | import | inherit
  name      TEXT NOT NULL,
  qualifier TEXT,
  module    TEXT,
  alias     TEXT,
  line      INTEGER NOT NULL,
  target_id TEXT
);
CREATE INDEX refs_source ON refs(source_id);
CREATE INDEX refs_target ON refs(target_id);

-- Code-aware full-text index over views (rowid = views.id), contentless so the
-- text is stored once. `name` holds the object's qualified name, `text` the view
-- text with identifiers kept whole (`_` is a token character), `parts` the
-- lower-cased parts of every compound identifier, so `parse` finds
-- `parseConfigFile` and `parse_config_file` while whole identifiers match too.
CREATE VIRTUAL TABLE views_fts USING fts5(
  name, text, parts,
  content = '',
  contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
);

CREATE TRIGGER views_fts_delete AFTER DELETE ON views BEGIN
  DELETE FROM views_fts WHERE rowid = old.id;
END;

-- Index-wide state: `resolution_dirty` is set in the same transaction as any
-- file change and cleared once references and derived views are rebuilt, so an
-- interrupted run resumes the resolution it missed.
CREATE TABLE state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
