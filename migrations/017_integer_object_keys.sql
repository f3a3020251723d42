-- allot index, schema 17: objects are referred to by an integer key inside the store. The public object id (a
-- 16-character hash of path, qualified name and kind, which users and clients see) is stored once, in
-- `objects.id`; views, references and parents hold the object's `key`. On SymPy the repeated text ids and their
-- indexes were about a sixth of the database. AUTOINCREMENT: a key is never given to another object, so a
-- reference whose target went (resolution rewrites it) can never point at a newcomer.
--
-- A derived view (call site, import, test reference) no longer keeps a copy of its line: its text is rebuilt from
-- the using file's line like an own view's (indexer/store/view-texts.ts). The line cannot have changed since the
-- view was made (a file's rewrite drops the derived views living in it first), so full-text rows stay deletable.
-- The embedding hash index holds only objects that have one (none until an embedding pass).

-- The old table is renamed first, so the children's REFERENCES follow it and dropping it later cascades nowhere.
ALTER TABLE objects RENAME TO objects_old;
CREATE TABLE objects (
  key            INTEGER PRIMARY KEY AUTOINCREMENT,
  id             TEXT NOT NULL UNIQUE,         -- the public id
  file_id        INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  parent         INTEGER,                      -- the enclosing object's key (same file); NULL for modules and files
  kind           TEXT NOT NULL,
  name           TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  start_line     INTEGER NOT NULL,
  end_line       INTEGER NOT NULL,
  start_byte     INTEGER NOT NULL,
  end_byte       INTEGER NOT NULL,
  signature      TEXT NOT NULL,
  docstring      TEXT,
  embed_hash     TEXT
);
INSERT INTO objects (id, file_id, kind, name, qualified_name, start_line, end_line, start_byte, end_byte, signature, docstring, embed_hash)
SELECT id, file_id, kind, name, qualified_name, start_line, end_line, start_byte, end_byte, signature, docstring, embed_hash
FROM objects_old ORDER BY file_id, start_byte, id;
UPDATE objects SET parent = (SELECT p.key FROM objects_old c JOIN objects p ON p.id = c.parent_id WHERE c.id = objects.id);

CREATE TABLE views_new (
  id         INTEGER PRIMARY KEY,            -- the full-text row's rowid: kept
  object     INTEGER NOT NULL REFERENCES objects(key) ON DELETE CASCADE,
  file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  derived    INTEGER NOT NULL DEFAULT 0,
  start_line INTEGER NOT NULL,
  end_line   INTEGER NOT NULL
);
INSERT INTO views_new (id, object, file_id, kind, derived, start_line, end_line)
SELECT v.id, o.key, v.file_id, v.kind, v.derived, v.start_line, v.end_line FROM views v JOIN objects o ON o.id = v.object_id;

-- `target` is rewritten by every resolution pass, so it carries no foreign key.
CREATE TABLE refs_new (
  id        INTEGER PRIMARY KEY,
  source    INTEGER NOT NULL REFERENCES objects(key) ON DELETE CASCADE,
  kind      TEXT NOT NULL,                     -- call | import | inherit
  name      TEXT NOT NULL,
  qualifier TEXT,
  module    TEXT,
  alias     TEXT,
  line      INTEGER NOT NULL,
  target    INTEGER
);
INSERT INTO refs_new (id, source, kind, name, qualifier, module, alias, line, target)
SELECT r.id, s.key, r.kind, r.name, r.qualifier, r.module, r.alias, r.line, t.key
FROM refs r JOIN objects s ON s.id = r.source_id LEFT JOIN objects t ON t.id = r.target_id;

DROP TABLE views;
DROP TABLE refs;
DROP TABLE objects_old;
ALTER TABLE views_new RENAME TO views;
ALTER TABLE refs_new RENAME TO refs;

CREATE INDEX objects_file ON objects(file_id, start_line);
CREATE INDEX objects_name ON objects(name);
CREATE INDEX objects_parent ON objects(parent);
CREATE INDEX objects_embed_hash ON objects(embed_hash) WHERE embed_hash IS NOT NULL;
CREATE INDEX views_object ON views(object);
CREATE INDEX views_file ON views(file_id);
CREATE INDEX refs_source ON refs(source);
-- Only resolved references are looked up by target.
CREATE INDEX refs_target ON refs(target) WHERE target IS NOT NULL;
